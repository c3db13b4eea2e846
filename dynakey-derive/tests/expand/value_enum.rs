// A unit enum stored by variant name (usable as a key part), one variant
// renamed.
#[derive(DynamoValue)]
pub enum Status {
    Open,
    #[dynamo(rename = "DONE")]
    Closed,
}
