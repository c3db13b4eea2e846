// `begins_with` applies to string and binary attributes (a number is
// compared with lt/le/gt/ge/between), and skipping an attribute does not compile.
use dynakey::DynamoEntity;

#[derive(DynamoEntity)]
#[dynamo(entity = "SCORE")]
#[pk("GAME#<game>")]
#[sk("PLAYER#<player>")]
#[gsi("ByScore", pk(game), sk(level, score))]
struct Score {
    game: String,
    player: String,
    level: u16,
    score: i64,
}

fn main() {
    let _ = Score::by_score_sk().begins_with("1");
    let _ = Score::by_score_sk().score(5i64);
}
