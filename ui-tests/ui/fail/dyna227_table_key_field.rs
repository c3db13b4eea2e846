// A table-key field cannot be updated: it is the item's identity.
use dynakey::DynamoEntity;

#[derive(DynamoEntity)]
#[dynamo(entity = "NOTE")]
#[pk("OWNER#<owner>")]
#[sk("NOTE#<id>")]
struct Note {
    owner: String,
    id: String,
    text: String,
}

fn main() {
    let _ = Note::update("ann", "n1").set_owner("bob");
}
