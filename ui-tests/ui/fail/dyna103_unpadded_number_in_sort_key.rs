// `10` sorts before `2`: numbers in sort keys need a width. Partition keys
// are exempt (the shard below compiles).
use dynakey::DynamoEntity;

#[derive(DynamoEntity)]
#[dynamo(entity = "CHUNK")]
#[pk("FILE#<file_id>#<shard>")]
#[sk("CHUNK#<index>")]
struct FileChunk {
    file_id: String,
    shard: u8,
    index: u32,
}

fn main() {}
