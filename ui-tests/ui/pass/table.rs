// The seed's adjacency list as one table: the checks pass, and the table
// lists its entities for create_table.
use dynakey::{DynamoEntity, DynamoTable};

#[derive(DynamoEntity)]
#[dynamo(entity = "MEMBER")]
#[pk("USER#<user_id>")]
#[sk("PROFILE")]
struct Member {
    user_id: String,
}

#[derive(DynamoEntity)]
#[dynamo(entity = "MEMBERSHIP")]
#[pk("USER#<user_id>")]
#[sk("GROUP#<group_id>")]
#[gsi("GSI1", pk = "GROUP#<group_id>", sk = "USER#<user_id>")]
struct Membership {
    user_id: String,
    group_id: String,
}

#[derive(DynamoEntity)]
#[dynamo(entity = "TEAM")]
#[pk("GROUP#<group_id>")]
#[sk("INFO")]
#[gsi("GSI1", pk = "GROUP#<group_id>", sk = "INFO")]
struct Team {
    group_id: String,
}

#[derive(DynamoTable)]
#[dynamo(entities(Member, Membership, Team))]
struct Shop;

fn main() {
    assert_eq!(Shop::ENTITIES.len(), 3);
}

/// The standard nested collection, allowed for its table: a task's
/// comments under the task (a typed query of tasks pays for the comments).
mod nested {
    use dynakey::{DynamoEntity, DynamoTable};

    #[derive(DynamoEntity)]
    #[dynamo(entity = "TASK")]
    #[pk("PROJECT#<project>")]
    #[sk("TASK#<n:d4>")]
    pub struct Task {
        project: String,
        n: u32,
    }

    #[derive(DynamoEntity)]
    #[dynamo(entity = "COMMENT")]
    #[pk("PROJECT#<project>")]
    #[sk("TASK#<n:d4>#COMMENT#<id>")]
    pub struct Comment {
        project: String,
        n: u32,
        id: String,
    }

    #[derive(DynamoTable)]
    #[dynamo(entities(Task, Comment), overlap(Task, Comment))]
    pub struct Tracker;
}
