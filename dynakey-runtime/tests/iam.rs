//! The IAM policy of a declared use (`table::iam::Access`): its
//! statements, its tenant patterns, what it refuses, and its place in the
//! exports. What the code sends is authorized against it in
//! `examples/tests/iam.rs`.

use dynakey_derive::DynamoEntity;
use dynakey_runtime::changes::StreamView;
use dynakey_runtime::table::export;
use dynakey_runtime::table::iam::{Access, Action, Arns};
use dynakey_runtime::table::TableOptions;
use dynakey_runtime::Entity;
use serde_json::{json, Value};

/// A member of a tenant: an index by team inside the tenant, a global
/// list outside it, a local index, and a unique email per tenant.
#[derive(DynamoEntity)]
#[dynamo(crate = "dynakey_runtime", entity = "MEMBER")]
#[pk("TENANT#<tenant>#MEMBER#<id>")]
#[sk("PROFILE")]
#[gsi("ByTeam", pk = "TENANT#<tenant>#TEAM#<team>", sk = "MEMBER#<id>")]
#[gsi("Featured", pk = "FEATURED", sk = "M#<id>")]
#[lsi("ByName", sk = "NAME#<name>")]
struct Member {
    tenant: String,
    id: String,
    team: String,
    name: String,
    #[dynamo(unique(scope = tenant))]
    email: String,
}

#[derive(DynamoEntity)]
#[dynamo(crate = "dynakey_runtime", entity = "INVOICE")]
#[pk("TENANT#<tenant>#INVOICE")]
#[sk("N#<number:d6>")]
struct Invoice {
    tenant: String,
    number: u32,
}

#[derive(DynamoEntity)]
#[dynamo(crate = "dynakey_runtime", entity = "PLAN")]
#[pk("PLAN#<plan>")]
#[sk("PLAN")]
struct Plan {
    plan: String,
}

#[derive(DynamoEntity)]
#[dynamo(crate = "dynakey_runtime", entity = "USER")]
#[pk("TENANT#<tenant>#USER#<id>")]
#[sk("USER")]
struct User {
    tenant: String,
    id: String,
    #[dynamo(unique)]
    handle: String,
}

/// A ticket with a vector index scoped by tenant.
#[derive(DynamoEntity)]
#[dynamo(crate = "dynakey_runtime", entity = "TICKET")]
#[pk("TENANT#<tenant>#TICKET")]
#[sk("T#<id>")]
#[vector_index("Similar", vector = embedding, dimensions = 2, distance = "COSINE", scope(tenant))]
struct Ticket {
    tenant: String,
    id: String,
    embedding: [f32; 2],
}

fn arns() -> Arns {
    Arns::new("aws", "eu-west-1", "111122223333")
}

fn statement<'a>(doc: &'a Value, sid: &str) -> &'a Value {
    doc["Statement"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["Sid"] == sid)
        .unwrap_or_else(|| panic!("no statement {sid} in {doc}"))
}

#[test]
fn a_table_use_grants_item_actions_on_the_table_and_queries_on_each_index() {
    let doc = Access::new("members", &[Member::META])
        .policy(&arns())
        .unwrap();
    let table = "arn:aws:dynamodb:eu-west-1:111122223333:table/members";
    let items = statement(&doc, "Items");
    assert_eq!(items["Resource"], json!([table]));
    let expected: Vec<&str> = Action::READ
        .iter()
        .chain(Action::WRITE)
        .map(|a| a.iam())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    assert_eq!(items["Action"], json!(expected));
    assert!(items.get("Condition").is_none());
    let indexes = statement(&doc, "Indexes");
    assert_eq!(indexes["Action"], json!(["dynamodb:Query"]));
    assert_eq!(
        indexes["Resource"],
        json!([
            format!("{table}/index/ByName"),
            format!("{table}/index/ByTeam"),
            format!("{table}/index/Featured")
        ])
    );
    assert_eq!(doc["Statement"].as_array().unwrap().len(), 2);
}

#[test]
fn scan_and_the_stream_are_granted_only_when_declared() {
    let doc = Access::new("members", &[Member::META])
        .read_only()
        .scan()
        .stream()
        .policy(&Arns::default())
        .unwrap();
    assert_eq!(
        statement(&doc, "Items")["Action"],
        json!([
            "dynamodb:BatchGetItem",
            "dynamodb:GetItem",
            "dynamodb:Query",
            "dynamodb:Scan"
        ])
    );
    assert_eq!(
        statement(&doc, "Indexes")["Action"],
        json!(["dynamodb:Query", "dynamodb:Scan"])
    );
    assert_eq!(
        statement(&doc, "Table")["Action"],
        json!(["dynamodb:DescribeTable"])
    );
    let stream = statement(&doc, "Stream");
    assert_eq!(
        stream["Resource"],
        json!(["arn:aws:dynamodb:*:*:table/members/stream/*"])
    );
    assert_eq!(
        stream["Action"],
        json!([
            "dynamodb:DescribeStream",
            "dynamodb:GetRecords",
            "dynamodb:GetShardIterator"
        ])
    );
    let err = Access::new("members", &[Member::META])
        .only(&[])
        .policy(&arns())
        .unwrap_err();
    assert!(err.to_string().contains("grants nothing"), "{err}");
}

#[test]
fn a_tenant_is_confined_to_its_partitions_by_leading_keys() {
    let doc = Access::new("members", &[Member::META, Invoice::META])
        .tenant("tenant", "acme")
        .policy(&arns())
        .unwrap();
    let keys = json!([
        "TENANT#acme#INVOICE",
        "TENANT#acme#MEMBER#*",
        "TENANT#acme#TEAM#*",
        "_UNIQUE#MEMBER#email@tenant#4:acme#*"
    ]);
    for sid in ["Items", "Indexes"] {
        let s = statement(&doc, sid);
        assert_eq!(
            s["Condition"]["ForAllValues:StringLike"]["dynamodb:LeadingKeys"], keys,
            "{sid}"
        );
        assert_eq!(
            s["Condition"]["Null"]["dynamodb:LeadingKeys"], "false",
            "{sid}"
        );
    }
    // The index keyed outside the tenant (`FEATURED`) is left out.
    let table = "arn:aws:dynamodb:eu-west-1:111122223333:table/members";
    assert_eq!(
        statement(&doc, "Indexes")["Resource"],
        json!([
            format!("{table}/index/ByName"),
            format!("{table}/index/ByTeam")
        ])
    );
}

#[test]
fn a_tenant_value_is_written_as_the_key_writes_it_and_matched_literally() {
    let doc = Access::new("t1", &[Invoice::META])
        .tenant("tenant", "a b*?$")
        .policy(&arns())
        .unwrap();
    // The key escapes the space and `$` (`%20`, `%24`); IAM's wildcards
    // are matched literally as `${*}` and `${?}`.
    assert_eq!(
        statement(&doc, "Items")["Condition"]["ForAllValues:StringLike"]["dynamodb:LeadingKeys"],
        json!(["TENANT#a%20b${*}${?}%24#INVOICE"])
    );
    let by_tag = Access::new("t1", &[Invoice::META])
        .tenant_variable("tenant", "aws:PrincipalTag/tenant")
        .policy(&arns())
        .unwrap();
    assert_eq!(
        statement(&by_tag, "Items")["Condition"]["ForAllValues:StringLike"]["dynamodb:LeadingKeys"],
        json!(["TENANT#${aws:PrincipalTag/tenant}#INVOICE"])
    );
}

#[test]
fn what_a_tenants_policy_cannot_confine_is_refused() {
    let refused = |a: Access| a.policy(&arns()).unwrap_err().to_string();
    let acme = |metas: &[&'static dynakey_runtime::EntityMeta]| {
        Access::new("members", metas).tenant("tenant", "acme")
    };
    let err = refused(acme(&[Invoice::META]).scan());
    assert!(err.contains("cannot scan"), "{err}");
    let err = refused(acme(&[Ticket::META]).search());
    assert!(err.contains("cannot search vectors"), "{err}");
    let err = refused(acme(&[Invoice::META]).stream());
    assert!(err.contains("stream"), "{err}");
    let err = refused(acme(&[Invoice::META, Plan::META]));
    assert!(err.contains("Plan") && err.contains("PLAN#<plan>"), "{err}");
    let err = refused(acme(&[User::META]));
    assert!(err.contains("handle") && err.contains("scope"), "{err}");
    let err = refused(
        Access::new("members", &[Member::META])
            .tenant_variable("tenant", "aws:PrincipalTag/tenant"),
    );
    assert!(err.contains("email"), "{err}");
    let err = refused(acme(&[Invoice::META]).tenant("tenant", ""));
    assert!(err.contains("empty"), "{err}");
    let err = refused(Access::new("members", &[Invoice::META]).label("no spaces"));
    assert!(err.contains("no spaces"), "{err}");
}

#[test]
fn the_exports_carry_the_policy_on_the_table_resources_arn() {
    let options = TableOptions::default().stream(StreamView::NewAndOldImages);
    let access = Access::new("members", &[Member::META]).stream();
    let cfn = export::cloudformation("members", &[Member::META], &options)
        .unwrap()
        .with_access(&access)
        .unwrap();
    let policy = &cfn.template()["Resources"]["MembersTableAccessPolicy"];
    assert_eq!(policy["Type"], "AWS::IAM::ManagedPolicy");
    let doc = &policy["Properties"]["PolicyDocument"];
    assert_eq!(
        statement(doc, "Items")["Resource"],
        json!([{"Fn::GetAtt": ["MembersTable", "Arn"]}])
    );
    assert_eq!(
        statement(doc, "Stream")["Resource"],
        json!([{"Fn::Sub": "${MembersTable.Arn}/stream/*"}])
    );
    assert_eq!(
        cfn.template()["Outputs"]["MembersTableAccessPolicyArn"]["Value"],
        json!({"Ref": "MembersTableAccessPolicy"})
    );
    // Twice the same label, another table, a stream the table lacks: refused.
    assert!(cfn.clone().with_access(&access).is_err());
    let other = Access::new("other", &[Member::META]);
    assert!(cfn
        .clone()
        .with_access(&other)
        .unwrap_err()
        .to_string()
        .contains("other"));
    let plain =
        export::cloudformation("members", &[Member::META], &TableOptions::default()).unwrap();
    let err = plain.with_access(&access).unwrap_err().to_string();
    assert!(err.contains("has none"), "{err}");

    let tenant =
        Access::new("members", &[Invoice::META]).tenant_variable("tenant", "aws:PrincipalTag/t");
    let tf = export::terraform("members", &[Invoice::META], &options)
        .unwrap()
        .with_access(&tenant)
        .unwrap();
    let text = tf.document()["resource"]["aws_iam_policy"]["members_access"]["policy"]
        .as_str()
        .unwrap();
    let doc: Value = serde_json::from_str(text).unwrap();
    assert_eq!(
        statement(&doc, "Items")["Resource"],
        json!(["${aws_dynamodb_table.members.arn}"])
    );
    // IAM's variable, escaped from Terraform's templates.
    assert_eq!(
        statement(&doc, "Items")["Condition"]["ForAllValues:StringLike"]["dynamodb:LeadingKeys"],
        json!(["TENANT#$${aws:PrincipalTag/t}#INVOICE"])
    );
}

#[test]
fn every_request_maps_to_the_action_that_authorizes_it() {
    for (op, action) in [
        ("PutItem", Some(Action::PutItem)),
        ("Put", Some(Action::PutItem)),
        ("Update", Some(Action::UpdateItem)),
        ("Delete", Some(Action::DeleteItem)),
        ("ConditionCheck", Some(Action::ConditionCheckItem)),
        ("Get", Some(Action::GetItem)),
        ("BatchWriteItem", Some(Action::BatchWriteItem)),
        ("TransactWriteItems", None),
        ("TransactGetItems", None),
        ("CreateTable", None),
    ] {
        assert_eq!(Action::of_request(op), action, "{op}");
    }
}

#[test]
fn a_vector_search_is_granted_on_each_vector_index_only_when_declared() {
    let plain = Access::new("tickets", &[Ticket::META])
        .policy(&arns())
        .unwrap();
    assert!(!plain.to_string().contains("SearchVectors"), "{plain}");
    let doc = Access::new("tickets", &[Ticket::META])
        .search()
        .policy(&arns())
        .unwrap();
    let s = statement(&doc, "VectorIndexes");
    assert_eq!(s["Action"], json!(["dynamodb:SearchVectors"]));
    assert_eq!(
        s["Resource"],
        json!(["arn:aws:dynamodb:eu-west-1:111122223333:table/tickets/index/Similar"])
    );
    // Not on the table, nor in the item statement.
    assert!(!statement(&doc, "Items")["Action"]
        .as_array()
        .unwrap()
        .contains(&json!("dynamodb:SearchVectors")));
    assert_eq!(
        Action::of_request("SearchVectors"),
        Some(Action::SearchVectors)
    );
}
