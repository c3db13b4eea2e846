// An entity with a sparse global index (its input may be absent) and an
// optimistic-lock version field.
#[derive(DynamoEntity)]
#[dynamo(entity = "TICKET")]
#[pk("TICKET#<id>")]
#[gsi("GSI1", pk = "ASSIGNEE#<assignee>", sk = "TICKET#<id>", sparse)]
pub struct Ticket {
    pub id: String,
    pub assignee: Option<String>,
    pub title: String,
    #[dynamo(version)]
    pub version: u64,
}
