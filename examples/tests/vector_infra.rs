//! A table with two vector indexes as infrastructure: the CloudFormation
//! export holds both (`VectorIndexes`, the search schemas' attributes
//! defined, the vector attribute not) and passes cfn-lint (from
//! `DYNAKEY_CFN_LINT`, the workspace's `.venv` or PATH; without it the lint
//! step says so, unless `DYNAKEY_REQUIRE_CFN_LINT=1`); what DynamoDB or the
//! Terraform provider cannot take is refused.

#[path = "support/served.rs"]
mod served;

use std::process::Command;

use dynakey::table::{export, Billing, TableOptions};
use dynakey::{Entity, Error};
use dynakey_examples::recipes::similar_tickets::{SupportTable, SupportTicket};
use serde_json::json;

#[test]
fn a_table_with_two_vector_indexes_exports_to_cloudformation_that_cfn_lint_passes() {
    let cfn = export::cloudformation("support", SupportTable::ENTITIES, &TableOptions::default())
        .unwrap();
    let props = &cfn.template()["Resources"]["SupportTable"]["Properties"];
    let vectors = props["VectorIndexes"].as_array().unwrap();
    assert_eq!(vectors.len(), 2);
    assert_eq!(
        vectors[0],
        json!({
            "IndexName": "SimilarTickets",
            "VectorAttribute": {"AttributeName": "embedding"},
            "Dimensions": 4,
            "DistanceFunction": "COSINE",
            "Projection": {"ProjectionType": "ALL"},
            "SearchSchema": [
                {"AttributeName": "tenant", "SearchSchemaElementType": "HASH"},
                {"AttributeName": "status", "SearchSchemaElementType": "INLINE_FILTER"}
            ]
        })
    );
    assert_eq!(
        vectors[1]["Projection"],
        json!({"ProjectionType": "INCLUDE", "NonKeyAttributes": ["_type", "subject"]})
    );
    let defined: Vec<&str> = props["AttributeDefinitions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["AttributeName"].as_str().unwrap())
        .collect();
    assert!(defined.contains(&"tenant") && defined.contains(&"status"));
    assert!(!defined.contains(&"embedding"));
    // cfn-lint's E3039 wants exactly the key attributes defined; DynamoDB
    // wants the search schema's too: the resource says so to cfn-lint.
    assert_eq!(
        cfn.template()["Resources"]["SupportTable"]["Metadata"]["cfn-lint"]["config"]
            ["ignore_checks"],
        json!(["E3039"])
    );

    let Some(lint) = served::cfn_lint() else {
        return;
    };
    let dir = served::temp_dir("vector-cfn");
    let files = [("json", cfn.json()), ("yaml", cfn.yaml())].map(|(ext, text)| {
        let f = dir.join(format!("support.{ext}"));
        std::fs::write(&f, text).unwrap();
        f
    });
    served::assert_clean(
        Command::new(&lint)
            .args(["--format", "parseable"])
            .args(&files),
        &format!("cfn-lint ({})", lint.display()),
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn what_cannot_hold_a_vector_index_is_refused() {
    let refused = |r: Result<String, Error>| match r {
        Err(Error::Refused { message, reason }) => {
            assert_eq!(reason, dynakey::RefusedReason::TableDefinition, "{message}");
            message
        }
        other => panic!("{other:?}"),
    };
    let provisioned = TableOptions::default().billing(Billing::Provisioned { read: 5, write: 5 });
    let m = refused(
        export::cloudformation("support", &[SupportTicket::META], &provisioned).map(|c| c.json()),
    );
    assert!(m.contains("PAY_PER_REQUEST"), "{m}");
    let m = refused(
        export::terraform("support", &[SupportTicket::META], &TableOptions::default())
            .map(|t| t.json()),
    );
    assert!(m.contains("vector index SimilarTickets"), "{m}");
}
