// Every syntax error of a template is reported in one build.
use dynakey::DynamoEntity;

#[derive(DynamoEntity)]
#[dynamo(entity = "EMPLOYEE")]
#[pk("ORG#<org")]
#[sk("SITE#<>#<number:D6>")]
struct Employee {
    org: String,
    number: u32,
}

fn main() {}
