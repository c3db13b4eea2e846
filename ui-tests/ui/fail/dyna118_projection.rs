// A projection is ALL, KEYS_ONLY or INCLUDE(fields), and names stored fields.
use dynakey::DynamoEntity;

#[derive(DynamoEntity)]
#[dynamo(entity = "TASK")]
#[pk("TASK#<id>")]
#[gsi("GSI1", pk = "OWNER#<owner>", projection = "INCLUDE(title, bdy)")]
#[gsi("GSI2", pk = "TITLE#<title>", projection = "SOME")]
struct Task {
    id: String,
    owner: String,
    title: String,
    body: String,
}

fn main() {}
