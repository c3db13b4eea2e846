// DynamoDB builds multi-attribute keys only in global secondary indexes:
// not for the table key, not in a local index, not mixed with a template
// (DYNA122); a native index is sparse by absence, so `sparse` does not
// apply (DYNA112).
use dynakey::DynamoEntity;

#[derive(DynamoEntity)]
#[dynamo(entity = "ORDER")]
#[pk(tenant, region)]
struct Order {
    tenant: String,
    region: String,
}

#[derive(DynamoEntity)]
#[dynamo(entity = "LINE")]
#[pk("ORDER#<order>")]
#[sk("LINE#<n:d3>")]
#[lsi("ByStatus", sk(status, n))]
#[gsi("Mixed", pk = "SKU#<sku>", sk(status))]
#[gsi("Sparse", pk(sku), sparse)]
struct Line {
    order: String,
    n: u16,
    status: String,
    sku: String,
}

fn main() {}
