// For a type the macro cannot see through, the format's trait bound reports
// the mismatch at the field.
use dynakey::DynamoEntity;

type Amount = String;

#[derive(DynamoEntity)]
#[dynamo(entity = "EXPENSE")]
#[pk("EXPENSE#<id>")]
#[sk("AMOUNT#<amount:n8.2>")]
struct Expense {
    id: String,
    amount: Amount,
}

fn main() {}
