// A task's comments under the task (`TASK#<n>` beside
// `TASK#<n>#COMMENT#<id>`): a typed query of tasks also reads the comments.
// Allowed per table with `overlap(..)`, except for a `path` field, whose
// value could write the other entity's key.
use dynakey::{DynamoEntity, DynamoTable};

#[derive(DynamoEntity)]
#[dynamo(entity = "TASK")]
#[pk("PROJECT#<project>")]
#[sk("TASK#<n:d4>")]
struct Task {
    project: String,
    n: u32,
}

#[derive(DynamoEntity)]
#[dynamo(entity = "COMMENT")]
#[pk("PROJECT#<project>")]
#[sk("TASK#<n:d4>#COMMENT#<id>")]
struct Comment {
    project: String,
    n: u32,
    id: String,
}

#[derive(DynamoEntity)]
#[dynamo(entity = "FOLDER")]
#[pk("PROJECT#<project>")]
#[sk("F#<path:path>")]
struct Folder {
    project: String,
    path: String,
}

#[derive(DynamoEntity)]
#[dynamo(entity = "FILE")]
#[pk("PROJECT#<project>")]
#[sk("F#FILE#<name>")]
struct File {
    project: String,
    name: String,
}

#[derive(DynamoTable)]
#[dynamo(entities(Task, Comment))]
struct Tracker;

#[derive(DynamoTable)]
#[dynamo(entities(Folder, File), overlap(Folder, File))]
struct Drive;

fn main() {}
