//! The least-privilege policy of an [`Access`] beside the table in each
//! export: an `AWS::IAM::ManagedPolicy` in CloudFormation and an
//! `aws_iam_policy` in Terraform, whose resources are the table
//! resource's ARN (so they follow the table name's parameter).

use serde_json::json;

use super::terraform::escape;
use super::{CloudFormation, Terraform};
use crate::error::Error;
use crate::table::iam::{Access, Targets};
use crate::table::invalid;

/// Refuses an access to another table, or to a stream the table lacks.
fn check(access: &Access, table: &str, has_stream: bool) -> Result<(), Error> {
    if access.table() != table {
        return Err(invalid(format!(
            "the access is to table {}, the export is of table {table}",
            access.table()
        )));
    }
    if !has_stream && access.actions().any(|a| a.on_stream()) {
        return Err(invalid(format!(
            "the access reads the stream of {table}, which has none: give the table a stream (`TableOptions::stream`)"
        )));
    }
    Ok(())
}

fn description(access: &Access) -> String {
    let actions: Vec<&str> = access.actions().map(|a| a.iam()).collect();
    format!(
        "{} to DynamoDB table {} as the code declares it (dynakey): {}",
        access.label_text(),
        access.table(),
        actions.join(", ")
    )
}

impl CloudFormation {
    /// The template with the policy of `access` (an access to this table):
    /// an `AWS::IAM::ManagedPolicy` `<Table>Table<label>Policy` (see
    /// [`Access::label`]) whose resources are the table's ARN
    /// (`Fn::GetAtt`) and its index and stream ARNs (`Fn::Sub` on it), and
    /// an output of the policy's ARN. Deploying it needs the
    /// `CAPABILITY_IAM` capability.
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE")]
    /// # #[pk("USER#<user>")] #[sk("NOTE#<id>")]
    /// # #[gsi("GSI1", pk = "TAG#<tag>", sk = "NOTE#<id>")]
    /// # struct Note { user: String, id: String, tag: String }
    /// use dynakey_runtime::table::{export, iam::Access, TableOptions};
    /// use dynakey_runtime::Entity;
    /// let cfn = export::cloudformation("notes", &[Note::META], &TableOptions::default()).unwrap()
    ///     .with_access(&Access::new("notes", &[Note::META]).read_only()).unwrap();
    /// let policy = &cfn.template()["Resources"]["NotesTableAccessPolicy"];
    /// assert_eq!(policy["Type"], "AWS::IAM::ManagedPolicy");
    /// let statements = &policy["Properties"]["PolicyDocument"]["Statement"];
    /// assert_eq!(statements[0]["Resource"][0]["Fn::GetAtt"][0], "NotesTable");
    /// assert_eq!(statements[1]["Resource"][0]["Fn::Sub"], "${NotesTable.Arn}/index/GSI1");
    /// ```
    pub fn with_access(mut self, access: &Access) -> Result<Self, Error> {
        let id = self.logical_id.clone();
        let props = &self.template["Resources"][&id]["Properties"];
        check(
            access,
            &self.table,
            props.get("StreamSpecification").is_some(),
        )?;
        let index = |ix: &str| json!({"Fn::Sub": format!("${{{id}.Arn}}/index/{ix}")});
        let targets = Targets {
            table: json!({"Fn::GetAtt": [id, "Arn"]}),
            index: &index,
            stream: json!({"Fn::Sub": format!("${{{id}.Arn}}/stream/*")}),
            literal: &|s| s.to_owned(),
        };
        let statements = access.statements(&targets)?;
        let policy = format!("{id}{}Policy", access.label_text());
        if self.template["Resources"].get(&policy).is_some() {
            return Err(invalid(format!(
                "two accesses labelled {:?}: label each (`Access::label`)",
                access.label_text()
            )));
        }
        self.template["Resources"][&policy] = json!({
            "Type": "AWS::IAM::ManagedPolicy",
            "Properties": {
                "Description": description(access),
                "PolicyDocument": {"Version": "2012-10-17", "Statement": statements},
            },
        });
        self.template["Outputs"][format!("{policy}Arn")] = json!({
            "Description": format!("The ARN of the policy {} to table {}", access.label_text(), self.table),
            "Value": {"Ref": policy},
        });
        Ok(self)
    }
}

impl Terraform {
    /// The document with the policy of `access` (an access to this table):
    /// an `aws_iam_policy` `<table>_<label>` whose policy names the
    /// table's ARN by reference (`${aws_dynamodb_table.<table>.arn}`), its
    /// index ARNs and stream ARN under it; every literal in it is escaped
    /// from Terraform's templates (`$${aws:PrincipalTag/tenant}` is IAM's
    /// variable).
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE")]
    /// # #[pk("USER#<user>")] struct Note { user: String }
    /// use dynakey_runtime::table::{export, iam::Access, TableOptions};
    /// use dynakey_runtime::Entity;
    /// let tf = export::terraform("notes", &[Note::META], &TableOptions::default()).unwrap()
    ///     .with_access(&Access::new("notes", &[Note::META])).unwrap();
    /// let policy = &tf.document()["resource"]["aws_iam_policy"]["notes_access"]["policy"];
    /// assert!(policy.as_str().unwrap().contains("\"${aws_dynamodb_table.notes.arn}\""));
    /// ```
    pub fn with_access(mut self, access: &Access) -> Result<Self, Error> {
        let id = self.resource_name.clone();
        let table = &self.document["resource"]["aws_dynamodb_table"][&id];
        check(access, &self.table, table.get("stream_enabled").is_some())?;
        let arn = format!("${{aws_dynamodb_table.{id}.arn}}");
        let index = |ix: &str| json!(format!("{arn}/index/{}", escape(ix)));
        let targets = Targets {
            table: json!(arn),
            index: &index,
            stream: json!(format!("{arn}/stream/*")),
            literal: &escape,
        };
        let statements = access.statements(&targets)?;
        let document = json!({"Version": "2012-10-17", "Statement": statements});
        let name = format!("{id}_{}", access.label_text().to_ascii_lowercase());
        let policies = &mut self.document["resource"]["aws_iam_policy"];
        if policies.get(&name).is_some() {
            return Err(invalid(format!(
                "two accesses labelled {:?}: label each (`Access::label`)",
                access.label_text()
            )));
        }
        policies[&name] = json!({
            "description": escape(&description(access)),
            "policy": serde_json::to_string(&document).expect("a JSON value always serializes"),
        });
        Ok(self)
    }
}
