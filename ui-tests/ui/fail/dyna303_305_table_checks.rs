// A table's entities checked against each other: different key attribute
// names (DYNA303), an index that disagrees (DYNA304), and a sort-key prefix
// that swallows another type's (DYNA305).
use dynakey::{DynamoEntity, DynamoTable};

#[derive(DynamoEntity)]
#[dynamo(entity = "ORDER")]
#[pk("CUSTOMER#<customer>")]
#[sk("ORDER#<id>")]
#[gsi("GSI1", pk = "STATUS#<status>")]
struct Order {
    customer: String,
    id: String,
    status: String,
}

#[derive(DynamoEntity)]
#[dynamo(entity = "ORDER_LINE")]
#[pk("CUSTOMER#<customer>")]
#[sk("ORDER#<order>#LINE#<line:d3>")]
#[gsi("GSI1", pk = "SKU#<sku>", pk_attr = "skuKey")]
struct OrderLine {
    customer: String,
    order: String,
    line: u16,
    sku: String,
}

#[derive(DynamoEntity)]
#[dynamo(entity = "INVOICE", pk_attr = "PK", sk_attr = "SK")]
#[pk("CUSTOMER#<customer>")]
#[sk("INVOICE#<id>")]
struct Invoice {
    customer: String,
    id: String,
}

#[derive(DynamoTable)]
#[dynamo(entities(Order, OrderLine, Invoice))]
struct Shop;

fn main() {}
