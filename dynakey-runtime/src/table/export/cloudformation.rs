//! CloudFormation: one `AWS::DynamoDB::Table` resource in a template, as
//! JSON or YAML, with outputs for the table's name, ARN and stream ARN.

use serde_json::{json, Map, Value};

use super::{params, pretty, yaml, Index, Model};
use crate::entity::EntityMeta;
use crate::error::Error;
use crate::table::{Billing, Encryption, TableOptions};

/// A CloudFormation template holding the table (see
/// [`cloudformation`] and the example on [`export`](super)).
#[derive(Debug, Clone, PartialEq)]
pub struct CloudFormation {
    pub(super) logical_id: String,
    /// The table's name in the code (the default of its parameter).
    pub(super) table: String,
    pub(super) template: Value,
}

impl CloudFormation {
    /// The resource's logical id: the table name in CamelCase and `Table`
    /// (`shop` → `ShopTable`).
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "E")]
    /// # #[pk("E#<id>")] struct E { id: String }
    /// use dynakey_runtime::{table::{export, TableOptions}, Entity};
    /// let t = export::cloudformation("order-events.v2", &[E::META], &TableOptions::default()).unwrap();
    /// assert_eq!(t.logical_id(), "OrderEventsV2Table");
    /// ```
    pub fn logical_id(&self) -> &str {
        &self.logical_id
    }

    /// The template as a JSON value.
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "E")]
    /// # #[pk("E#<id>")] struct E { id: String }
    /// use dynakey_runtime::{table::{export, TableOptions}, Entity};
    /// let t = export::cloudformation("events", &[E::META], &TableOptions::default()).unwrap();
    /// let props = &t.template()["Resources"]["EventsTable"]["Properties"];
    /// assert_eq!(props["BillingMode"], "PAY_PER_REQUEST");
    /// assert_eq!(props["KeySchema"][0]["AttributeName"], "pk");
    /// ```
    pub fn template(&self) -> &Value {
        &self.template
    }

    /// The template as JSON text (see the example on [`export`](super)).
    pub fn json(&self) -> String {
        pretty(&self.template)
    }

    /// The template as YAML text: block style, every string double-quoted
    /// (so no value is read as a number, boolean or date), the same
    /// document as [`CloudFormation::json`] (see the example on
    /// [`export`](super)).
    pub fn yaml(&self) -> String {
        yaml::to_yaml(&self.template)
    }
}

fn key_schema(keys: &[(&str, &str)]) -> Value {
    keys.iter()
        .map(|(a, t)| json!({"AttributeName": a, "KeyType": t}))
        .collect()
}

fn projection(ix: &Index) -> Value {
    let mut p = json!({"ProjectionType": ix.projection_type()});
    if let Some(attrs) = &ix.include {
        p["NonKeyAttributes"] = json!(attrs);
    }
    p
}

/// One `VectorIndexes` entry: what `create_table` sends, in
/// CloudFormation's words.
fn vector_index(v: &crate::table::vector::VectorDef) -> Value {
    let m = v.meta;
    let mut p = json!({"ProjectionType": if v.projection.is_some() { "INCLUDE" } else { "ALL" }});
    if let Some(attrs) = &v.projection {
        p["NonKeyAttributes"] = json!(attrs);
    }
    let mut ix = json!({
        "IndexName": m.name,
        "VectorAttribute": {"AttributeName": m.vector_attr},
        "Dimensions": m.dimensions,
        "DistanceFunction": m.distance.as_str(),
        "Projection": p,
    });
    let schema: Vec<Value> = m
        .schema_attrs()
        .map(|(a, _, scope)| {
            json!({"AttributeName": a, "SearchSchemaElementType": if scope { "HASH" } else { "INLINE_FILTER" }})
        })
        .collect();
    if !schema.is_empty() {
        ix["SearchSchema"] = json!(schema);
    }
    ix
}

fn on_demand(max_read: Option<u64>, max_write: Option<u64>) -> Option<Value> {
    if max_read.is_none() && max_write.is_none() {
        return None;
    }
    let mut m = Map::new();
    if let Some(r) = max_read {
        m.insert("MaxReadRequestUnits".into(), json!(r));
    }
    if let Some(w) = max_write {
        m.insert("MaxWriteRequestUnits".into(), json!(w));
    }
    Some(Value::Object(m))
}

/// Billing of the table or one global index.
fn throughput(o: &TableOptions, into: &mut Map<String, Value>) {
    match o.billing {
        Billing::Provisioned { read, write } => {
            into.insert(
                "ProvisionedThroughput".into(),
                json!({"ReadCapacityUnits": read, "WriteCapacityUnits": write}),
            );
        }
        Billing::OnDemand {
            max_read,
            max_write,
        } => {
            if let Some(v) = on_demand(max_read, max_write) {
                into.insert("OnDemandThroughput".into(), v);
            }
        }
    }
}

fn properties(m: &Model) -> Map<String, Value> {
    let o = m.options;
    let mut p = Map::new();
    p.insert("TableName".into(), json!(m.name));
    p.insert(
        "AttributeDefinitions".into(),
        m.attrs
            .iter()
            .map(|(a, t)| json!({"AttributeName": a, "AttributeType": t.as_str()}))
            .collect(),
    );
    let mut keys = vec![(m.pk, "HASH")];
    keys.extend(m.sk.map(|s| (s, "RANGE")));
    p.insert("KeySchema".into(), key_schema(&keys));
    p.insert("BillingMode".into(), json!(o.billing.mode()));
    throughput(o, &mut p);
    if !m.globals.is_empty() {
        let gsis = m.globals.iter().map(|ix| {
            let mut g = Map::new();
            g.insert("IndexName".into(), json!(ix.name));
            g.insert("KeySchema".into(), key_schema(&ix.keys));
            g.insert("Projection".into(), projection(ix));
            throughput(o, &mut g);
            Value::Object(g)
        });
        p.insert("GlobalSecondaryIndexes".into(), gsis.collect());
    }
    if !m.locals.is_empty() {
        let lsis = m.locals.iter().map(|ix| {
            json!({"IndexName": ix.name, "KeySchema": key_schema(&ix.keys), "Projection": projection(ix)})
        });
        p.insert("LocalSecondaryIndexes".into(), lsis.collect());
    }
    if !m.vectors.is_empty() {
        p.insert(
            "VectorIndexes".into(),
            m.vectors.iter().map(vector_index).collect(),
        );
    }
    if let Some(t) = m.ttl {
        p.insert(
            "TimeToLiveSpecification".into(),
            json!({"AttributeName": t, "Enabled": true}),
        );
    }
    if let Some(view) = o.stream {
        p.insert(
            "StreamSpecification".into(),
            json!({"StreamViewType": view.as_str()}),
        );
    }
    if let Some(w) = o.warm_throughput {
        p.insert(
            "WarmThroughput".into(),
            json!({"ReadUnitsPerSecond": w.read_units_per_second, "WriteUnitsPerSecond": w.write_units_per_second}),
        );
    }
    if let Some(pitr) = o.point_in_time_recovery {
        let mut spec = json!({"PointInTimeRecoveryEnabled": true});
        if let Some(d) = pitr.recovery_period_days {
            spec["RecoveryPeriodInDays"] = json!(d);
        }
        p.insert("PointInTimeRecoverySpecification".into(), spec);
    }
    if o.deletion_protection {
        p.insert("DeletionProtectionEnabled".into(), json!(true));
    }
    if let Some(c) = o.table_class {
        p.insert("TableClass".into(), json!(c.as_str()));
    }
    match &o.encryption {
        None => {}
        Some(Encryption::AwsOwned) => {
            p.insert("SSESpecification".into(), json!({"SSEEnabled": false}));
        }
        Some(Encryption::Kms { key }) => {
            let mut sse = json!({"SSEEnabled": true, "SSEType": "KMS"});
            if let Some(k) = key {
                sse["KMSMasterKeyId"] = json!(k);
            }
            p.insert("SSESpecification".into(), sse);
        }
    }
    if !o.tags.is_empty() {
        let tags = o.tags.iter().map(|(k, v)| json!({"Key": k, "Value": v}));
        p.insert("Tags".into(), tags.collect());
    }
    if let Some(doc) = o.policy_document() {
        p.insert("ResourcePolicy".into(), json!({"PolicyDocument": doc}));
    }
    p
}

/// The CloudFormation template of table `name` for `metas` with
/// `options`: the table resource (kept on stack deletion and replacement,
/// `DeletionPolicy: Retain`, as stored data should be) and outputs of its
/// name and ARN, and its stream ARN when it has a stream. The same table
/// [`create_table_with`](crate::table::create_table_with) creates from the
/// same arguments. Refuses what DynamoDB would (a bad table name or
/// option, entities that disagree on a key).
///
/// See the example on [`export`](super).
pub fn cloudformation(
    name: &str,
    metas: &[&EntityMeta],
    options: &TableOptions,
) -> Result<CloudFormation, Error> {
    let m = Model::new(name, metas, options)?;
    let id = format!("{}Table", m.camel());
    let mut resource = json!({
        "Type": "AWS::DynamoDB::Table",
        "DeletionPolicy": "Retain",
        "UpdateReplacePolicy": "Retain",
        "Properties": properties(&m),
    });
    // DynamoDB requires every search-schema attribute of a vector index in
    // AttributeDefinitions ("One element in SearchSchema is not defined in
    // attribute definitions"), while cfn-lint 1.58's E3039 still wants
    // AttributeDefinitions to be exactly the key schemas' attributes: the
    // table holds DynamoDB's rule and tells cfn-lint so.
    if m.vectors
        .iter()
        .any(|v| v.meta.schema_attrs().next().is_some())
    {
        resource["Metadata"] = json!({"cfn-lint": {"config": {"ignore_checks": ["E3039"]}}});
    }
    let mut outputs = Map::new();
    outputs.insert(
        format!("{id}Name"),
        json!({"Description": format!("The name of table {name}"), "Value": {"Ref": id}}),
    );
    outputs.insert(
        format!("{id}Arn"),
        json!({"Description": format!("The ARN of table {name}"), "Value": {"Fn::GetAtt": [id, "Arn"]}}),
    );
    if options.stream.is_some() {
        outputs.insert(
            format!("{id}StreamArn"),
            json!({"Description": format!("The stream ARN of table {name}"), "Value": {"Fn::GetAtt": [id, "StreamArn"]}}),
        );
    }
    let mut template = json!({
        "AWSTemplateFormatVersion": "2010-09-09",
        "Description": format!("DynamoDB table {name}, exported by dynakey from its entities"),
        "Resources": { id.clone(): resource },
        "Outputs": outputs,
    });
    params::cloudformation(&mut template, &id, &m);
    Ok(CloudFormation {
        logical_id: id,
        table: name.to_owned(),
        template,
    })
}
