//! Terraform: an `aws_dynamodb_table` resource in Terraform's JSON syntax
//! (a `.tf.json` file), and an `aws_dynamodb_resource_policy` beside it
//! when the options carry a policy (the table resource has no argument
//! for one).
//!
//! Global indexes write their keys as `key_schema` blocks, the AWS
//! provider's form for native multi-attribute keys (provider 6.x; the
//! older `hash_key`/`range_key` of an index are deprecated there and hold
//! one attribute each). The table's own key stays `hash_key`/`range_key`.

use serde_json::{json, Map, Value};

use super::{params, pretty, Index, Model};
use crate::entity::EntityMeta;
use crate::error::Error;
use crate::table::{Billing, Encryption, TableOptions};

/// A `.tf.json` document holding the table (see [`terraform`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Terraform {
    pub(super) resource_name: String,
    /// The table's name in the code (the default of its variable).
    pub(super) table: String,
    pub(super) document: Value,
}

impl Terraform {
    /// The resource's name (`aws_dynamodb_table.<name>`): the table name
    /// with other characters than letters, digits and `-` as `_`.
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "E")]
    /// # #[pk("E#<id>")] struct E { id: String }
    /// use dynakey_runtime::{table::{export, TableOptions}, Entity};
    /// let t = export::terraform("orders.v2", &[E::META], &TableOptions::default()).unwrap();
    /// assert_eq!(t.resource_name(), "orders_v2");
    /// let r = &t.document()["resource"]["aws_dynamodb_table"]["orders_v2"];
    /// assert_eq!(r["hash_key"], "pk");
    /// ```
    pub fn resource_name(&self) -> &str {
        &self.resource_name
    }

    /// The document as a JSON value (see [`Terraform::resource_name`]).
    pub fn document(&self) -> &Value {
        &self.document
    }

    /// The document as `.tf.json` text (see the example on [`export`](super)).
    pub fn json(&self) -> String {
        pretty(&self.document)
    }
}

fn projection(ix: &Index, into: &mut Map<String, Value>) {
    into.insert("projection_type".into(), json!(ix.projection_type()));
    if let Some(a) = &ix.include {
        into.insert("non_key_attributes".into(), json!(a));
    }
}

fn on_demand(max_read: Option<u64>, max_write: Option<u64>) -> Option<Value> {
    if max_read.is_none() && max_write.is_none() {
        return None;
    }
    let mut m = Map::new();
    if let Some(r) = max_read {
        m.insert("max_read_request_units".into(), json!(r));
    }
    if let Some(w) = max_write {
        m.insert("max_write_request_units".into(), json!(w));
    }
    Some(json!([Value::Object(m)]))
}

fn throughput(o: &TableOptions, into: &mut Map<String, Value>) {
    match o.billing {
        Billing::Provisioned { read, write } => {
            into.insert("read_capacity".into(), json!(read));
            into.insert("write_capacity".into(), json!(write));
        }
        Billing::OnDemand {
            max_read,
            max_write,
        } => {
            if let Some(v) = on_demand(max_read, max_write) {
                into.insert("on_demand_throughput".into(), v);
            }
        }
    }
}

fn table(m: &Model) -> Map<String, Value> {
    let o = m.options;
    let mut r = Map::new();
    r.insert("name".into(), json!(m.name));
    r.insert("billing_mode".into(), json!(o.billing.mode()));
    throughput(o, &mut r);
    r.insert("hash_key".into(), json!(m.pk));
    if let Some(sk) = m.sk {
        r.insert("range_key".into(), json!(sk));
    }
    r.insert(
        "attribute".into(),
        m.attrs
            .iter()
            .map(|(a, t)| json!({"name": a, "type": t.as_str()}))
            .collect(),
    );
    if !m.globals.is_empty() {
        let gsis = m.globals.iter().map(|ix| {
            let mut g = Map::new();
            g.insert("name".into(), json!(ix.name));
            g.insert(
                "key_schema".into(),
                ix.keys
                    .iter()
                    .map(|(a, t)| json!({"attribute_name": a, "key_type": t}))
                    .collect(),
            );
            projection(ix, &mut g);
            throughput(o, &mut g);
            Value::Object(g)
        });
        r.insert("global_secondary_index".into(), gsis.collect());
    }
    if !m.locals.is_empty() {
        let lsis = m.locals.iter().map(|ix| {
            let mut l = Map::new();
            l.insert("name".into(), json!(ix.name));
            let range = ix.keys.iter().find(|(_, t)| *t == "RANGE").map(|(a, _)| *a);
            l.insert("range_key".into(), json!(range));
            projection(ix, &mut l);
            Value::Object(l)
        });
        r.insert("local_secondary_index".into(), lsis.collect());
    }
    if let Some(t) = m.ttl {
        r.insert(
            "ttl".into(),
            json!([{"attribute_name": t, "enabled": true}]),
        );
    }
    if let Some(view) = o.stream {
        r.insert("stream_enabled".into(), json!(true));
        r.insert("stream_view_type".into(), json!(view.as_str()));
    }
    if let Some(w) = o.warm_throughput {
        r.insert(
            "warm_throughput".into(),
            json!([{"read_units_per_second": w.read_units_per_second, "write_units_per_second": w.write_units_per_second}]),
        );
    }
    if let Some(p) = o.point_in_time_recovery {
        let mut b = json!({"enabled": true});
        if let Some(d) = p.recovery_period_days {
            b["recovery_period_in_days"] = json!(d);
        }
        r.insert("point_in_time_recovery".into(), json!([b]));
    }
    if o.deletion_protection {
        r.insert("deletion_protection_enabled".into(), json!(true));
    }
    if let Some(c) = o.table_class {
        r.insert("table_class".into(), json!(c.as_str()));
    }
    match &o.encryption {
        None => {}
        Some(Encryption::AwsOwned) => {
            r.insert("server_side_encryption".into(), json!([{"enabled": false}]));
        }
        // A customer-managed key's ARN is written by `terraform` below,
        // after the literals are escaped: it may be a reference.
        Some(Encryption::Kms { .. }) => {
            r.insert("server_side_encryption".into(), json!([{"enabled": true}]));
        }
    }
    if !o.tags.is_empty() {
        let tags: Map<String, Value> = o.tags.iter().map(|(k, v)| (k.clone(), json!(v))).collect();
        r.insert("tags".into(), Value::Object(tags));
    }
    r
}

/// Where `kms_key_arn` comes from for a customer-managed `key`. The AWS
/// provider refuses anything but an ARN there (`verify.ValidARN`), while
/// DynamoDB and CloudFormation's `KMSMasterKeyId` also take a key id or an
/// alias: an ARN is written as it is, an alias is looked up with
/// `data "aws_kms_alias"` (its `target_key_arn`), a key id with
/// `data "aws_kms_key"` (its `arn`).
enum KmsKey<'a> {
    Arn(&'a str),
    Alias(&'a str),
    Id(&'a str),
}

impl<'a> KmsKey<'a> {
    fn of(key: &'a str) -> Self {
        if key.starts_with("arn:") {
            KmsKey::Arn(key)
        } else if key.starts_with("alias/") {
            KmsKey::Alias(key)
        } else {
            KmsKey::Id(key)
        }
    }

    /// The `data` source to declare as `<kind>.<id>` with its arguments,
    /// and the value of `kms_key_arn` (a literal or a reference to it).
    fn arn(&self, id: &str) -> (Option<(&'static str, Value)>, String) {
        match self {
            KmsKey::Arn(arn) => (None, escape(arn)),
            KmsKey::Alias(name) => (
                Some(("aws_kms_alias", json!({ "name": escape(name) }))),
                format!("${{data.aws_kms_alias.{id}.target_key_arn}}"),
            ),
            KmsKey::Id(key_id) => (
                Some(("aws_kms_key", json!({ "key_id": escape(key_id) }))),
                format!("${{data.aws_kms_key.{id}.arn}}"),
            ),
        }
    }
}

/// Terraform reads every string of a `.tf.json` as a template: `${` and
/// `%{` start an interpolation or a directive. A name or value from the
/// code is written as itself, so both are escaped (`$${`, `%%{`).
pub(super) fn escape(s: &str) -> String {
    s.replace("${", "$${").replace("%{", "%%{")
}

fn literal(v: &mut Value) {
    match v {
        Value::String(s) => *s = escape(s),
        Value::Array(a) => a.iter_mut().for_each(literal),
        Value::Object(o) => o.values_mut().for_each(literal),
        _ => {}
    }
}

/// The Terraform document of table `name` for `metas` with `options`: the
/// same table [`cloudformation`](super::cloudformation) describes and
/// [`create_table_with`](crate::table::create_table_with) creates.
///
/// A customer-managed KMS key ([`Encryption::Kms`]) goes into
/// `kms_key_arn`, which the AWS provider takes only as an ARN: an ARN is
/// written as it is, an alias is looked up with a `data "aws_kms_alias"`
/// of the same name as the table's resource and a key id with a
/// `data "aws_kms_key"`, and `kms_key_arn` refers to the lookup's ARN.
///
/// ```
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "E")]
/// # #[pk("E#<id>")] struct E { id: String }
/// use dynakey_runtime::{table::{export, Encryption, TableOptions}, Entity};
/// let kms = |key: &str| TableOptions::default().encryption(Encryption::Kms { key: Some(key.into()) });
/// let t = export::terraform("orders", &[E::META], &kms("alias/orders")).unwrap();
/// let d = t.document();
/// assert_eq!(d["data"]["aws_kms_alias"]["orders"]["name"], "alias/orders");
/// let sse = &d["resource"]["aws_dynamodb_table"]["orders"]["server_side_encryption"][0];
/// assert_eq!(sse["kms_key_arn"], "${data.aws_kms_alias.orders.target_key_arn}");
///
/// let arn = "arn:aws:kms:eu-west-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab";
/// let t = export::terraform("orders", &[E::META], &kms(arn)).unwrap();
/// assert!(t.document().get("data").is_none());
/// ```
///
/// See also the examples on [`export`](super) and [`Terraform::resource_name`].
pub fn terraform(
    name: &str,
    metas: &[&EntityMeta],
    options: &TableOptions,
) -> Result<Terraform, Error> {
    let m = Model::new(name, metas, options)?;
    if let Some(v) = m.vectors.first() {
        return Err(crate::table::invalid(format!(
            "table {name} has vector index {}, which the Terraform AWS provider's aws_dynamodb_table has no documented argument for: export it as CloudFormation, or add the index with db.sync_table(..)",
            v.meta.name
        )));
    }
    let id = m.snake();
    let mut resources = Map::new();
    let mut t = Value::Object(table(&m));
    literal(&mut t);
    let mut data = Map::new();
    if let Some(Encryption::Kms { key: Some(key) }) = &options.encryption {
        let (source, arn) = KmsKey::of(key).arn(&id);
        if let Some((kind, args)) = source {
            data.insert(kind.into(), json!({ id.clone(): args }));
        }
        t["server_side_encryption"][0]["kms_key_arn"] = json!(arn);
    }
    resources.insert("aws_dynamodb_table".into(), json!({ id.clone(): t }));
    if let Some(doc) = options.policy_document() {
        resources.insert(
            "aws_dynamodb_resource_policy".into(),
            json!({ id.clone(): {
                "resource_arn": format!("${{aws_dynamodb_table.{id}.arn}}"),
                "policy": escape(&serde_json::to_string(&doc).expect("a JSON value always serializes")),
            }}),
        );
    }
    let mut document = json!({ "resource": resources });
    if !data.is_empty() {
        document["data"] = Value::Object(data);
    }
    params::terraform(&mut document, &id, &m);
    Ok(Terraform {
        resource_name: id,
        table: name.to_owned(),
        document,
    })
}
