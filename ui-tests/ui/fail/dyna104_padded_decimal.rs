// `d<w>` zero-pads integers; a decimal takes `n<w>.<p>`.
use dynakey::DynamoEntity;
use rust_decimal::Decimal;

#[derive(DynamoEntity)]
#[dynamo(entity = "EXPENSE")]
#[pk("EXPENSE#<id>")]
#[sk("AMOUNT#<amount:d8>")]
struct Expense {
    id: String,
    amount: Decimal,
}

fn main() {}
