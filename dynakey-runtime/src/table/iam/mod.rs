//! Least-privilege access from the code: the IAM policy a role needs to
//! use a table the way the code declares, as a JSON policy document and
//! inside the exports (an `AWS::IAM::ManagedPolicy` beside the table in
//! CloudFormation, an `aws_iam_policy` in Terraform).
//!
//! An [`Access`] is a table (its name and entities), the [`Action`]s the
//! use needs (reads and writes of items by default; `scan`, the stream
//! and the table's settings `verify_table` reads only when declared), and
//! optionally one tenant. The
//! policy grants exactly those actions: item actions on the table's ARN,
//! `Query`/`Scan` on each index's ARN (`table/NAME/index/INDEX`), the
//! stream's reads on its ARN (`table/NAME/stream/*`), the table's settings
//! reads on the table's ARN (`GetResourcePolicy` on the table's and the
//! stream's, the two resources IAM lists for it). DynamoDB authorizes
//! a transaction by its actions (a `Put` of `TransactWriteItems` needs
//! `dynamodb:PutItem`, a `TransactGetItems` needs `dynamodb:GetItem`;
//! [`Action::of_request`]) and a batch as `BatchGetItem`/`BatchWriteItem`.
//!
//! A tenant confines every item action with `dynamodb:LeadingKeys`: each
//! entity's partition key template with the tenant's value in place of
//! its tenant field and `*` for every other field (`TENANT#acme#USER#*`;
//! a template that is the tenant alone gives the exact key, so `acme`
//! never reaches `acme2`), under `ForAllValues:StringLike`, and a `Null`
//! condition that requires the key to be present (`ForAllValues` holds
//! for a request that names no key at all; a tenant is never granted
//! `Scan`). `LeadingKeys` is the partition key value a request names:
//! DynamoDB documents it as the table's partition key; for a `Query` of
//! an index the request names the index's partition key, so a tenant
//! reaches a global index only when that index's partition template
//! holds the tenant too (with its own pattern), a local index always
//! (it shares the table's), and no native-key index (its partition is a
//! plain attribute with no template to confine). A tenant given as a
//! policy variable (`${aws:PrincipalTag/tenant}`) makes one policy for
//! every tenant's role sessions.
//!
//! ```
//! # use dynakey_derive::DynamoEntity;
//! # #[derive(DynamoEntity)]
//! # #[dynamo(crate = "dynakey_runtime", entity = "DOC")]
//! # #[pk("TENANT#<tenant>")] #[sk("DOC#<id>")]
//! # struct Doc { tenant: String, id: String }
//! use dynakey_runtime::table::iam::{Access, Arns};
//! use dynakey_runtime::Entity;
//! let acme = Access::new("docs", &[Doc::META]).tenant("tenant", "acme");
//! let policy = acme.policy(&Arns::new("aws", "eu-west-1", "111122223333")).unwrap();
//! let items = &policy["Statement"][0];
//! assert_eq!(items["Resource"][0], "arn:aws:dynamodb:eu-west-1:111122223333:table/docs");
//! assert_eq!(items["Condition"]["ForAllValues:StringLike"]["dynamodb:LeadingKeys"][0], "TENANT#acme");
//! assert!(items["Action"].as_array().unwrap().contains(&"dynamodb:Query".into()));
//! ```

mod action;
mod tenant;

use std::collections::BTreeSet;

use serde_json::{json, Value};

pub use action::Action;

use super::{invalid, Plan};
use crate::entity::EntityMeta;
use crate::error::Error;
use tenant::{Reach, Tenant};

/// Where the table lives, for the ARNs of a policy document on its own
/// (the exports refer to the table resource instead). The default is the
/// `aws` partition in any region and account (`arn:aws:dynamodb:*:*:`):
/// a table name is the account's, so name the account when you can.
///
/// ```
/// use dynakey_runtime::table::iam::Arns;
/// assert_eq!(Arns::default().table("shop"), "arn:aws:dynamodb:*:*:table/shop");
/// assert_eq!(Arns::new("aws-cn", "cn-north-1", "1").table("t"), "arn:aws-cn:dynamodb:cn-north-1:1:table/t");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arns {
    /// `aws`, `aws-cn`, `aws-us-gov`, …
    pub partition: String,
    /// The region, or `*`.
    pub region: String,
    /// The account id, or `*`.
    pub account: String,
}

impl Default for Arns {
    fn default() -> Self {
        Arns::new("aws", "*", "*")
    }
}

impl Arns {
    /// The ARNs of `partition`, `region` and `account`.
    pub fn new(partition: &str, region: &str, account: &str) -> Self {
        Arns {
            partition: partition.into(),
            region: region.into(),
            account: account.into(),
        }
    }

    /// The ARN of table `name` (see the example on [`Arns`]).
    pub fn table(&self, name: &str) -> String {
        let Arns {
            partition,
            region,
            account,
        } = self;
        format!("arn:{partition}:dynamodb:{region}:{account}:table/{name}")
    }
}

/// The resources of a document: the table's ARN, an index's, the
/// stream's, and how a literal is written (Terraform escapes `${`).
pub(crate) struct Targets<'a> {
    pub(crate) table: Value,
    pub(crate) index: &'a dyn Fn(&str) -> Value,
    pub(crate) stream: Value,
    pub(crate) literal: &'a dyn Fn(&str) -> String,
}

/// A declared use of one table (see the [module](self)).
///
/// ```
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE")]
/// # #[pk("USER#<user>")] #[sk("NOTE#<id>")]
/// # #[gsi("GSI1", pk = "TAG#<tag>", sk = "NOTE#<id>")]
/// # struct Note { user: String, id: String, tag: String }
/// use dynakey_runtime::table::iam::{Access, Action, Arns};
/// use dynakey_runtime::Entity;
/// let reader = Access::new("notes", &[Note::META]).read_only();
/// let doc = reader.policy(&Arns::default()).unwrap();
/// assert_eq!(doc["Statement"][0]["Action"], serde_json::json!(["dynamodb:BatchGetItem", "dynamodb:GetItem", "dynamodb:Query"]));
/// assert_eq!(doc["Statement"][1]["Resource"][0], "arn:aws:dynamodb:*:*:table/notes/index/GSI1");
/// assert!(!reader.actions().any(|a| a == Action::PutItem));
/// ```
#[derive(Debug, Clone)]
#[must_use]
pub struct Access {
    table: String,
    metas: Vec<&'static EntityMeta>,
    actions: BTreeSet<Action>,
    tenant: Option<Tenant>,
    label: String,
}

impl Access {
    /// Reads and writes of the items of `metas` in table `table`
    /// ([`Action::READ`] and [`Action::WRITE`]).
    pub fn new(table: &str, metas: &[&'static EntityMeta]) -> Self {
        Access {
            table: table.into(),
            metas: metas.to_vec(),
            actions: Action::READ.iter().chain(Action::WRITE).copied().collect(),
            tenant: None,
            label: "Access".into(),
        }
    }

    /// Only reads ([`Action::READ`]; see the example on [`Access`]).
    pub fn read_only(mut self) -> Self {
        self.actions = Action::READ.iter().copied().collect();
        self
    }

    /// Exactly `actions`.
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "E")]
    /// # #[pk("E#<id>")] struct E { id: String }
    /// use dynakey_runtime::table::iam::{Access, Action};
    /// use dynakey_runtime::Entity;
    /// let a = Access::new("events", &[E::META]).only(&[Action::PutItem]);
    /// assert_eq!(a.actions().collect::<Vec<_>>(), [Action::PutItem]);
    /// ```
    pub fn only(mut self, actions: &[Action]) -> Self {
        self.actions = actions.iter().copied().collect();
        self
    }

    /// With `actions` too.
    pub fn with(mut self, actions: &[Action]) -> Self {
        self.actions.extend(actions);
        self
    }

    /// With `Scan` of the table and its indexes (never with a tenant).
    pub fn scan(self) -> Self {
        self.with(&[Action::Scan])
    }

    /// With `SearchVectors` of the entities' vector indexes (never with a
    /// tenant: a search's scope is no partition key, so
    /// `dynamodb:LeadingKeys` cannot confine it).
    pub fn search(self) -> Self {
        self.with(&[Action::SearchVectors])
    }

    /// With what `verify_table` and `verify_table_with` read
    /// ([`Action::VERIFY`]), on the table's ARN.
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "E")]
    /// # #[pk("E#<id>")] struct E { id: String }
    /// use dynakey_runtime::table::iam::{Access, Action};
    /// use dynakey_runtime::Entity;
    /// let a = Access::new("events", &[E::META]).only(&[]).verify();
    /// assert_eq!(a.actions().collect::<Vec<_>>(), Action::VERIFY);
    /// ```
    pub fn verify(self) -> Self {
        self.with(Action::VERIFY)
    }

    /// With the reads of the table's stream ([`Action::STREAM`]: the
    /// table's description for its stream ARN, and the stream's records).
    pub fn stream(self) -> Self {
        self.with(Action::STREAM)
    }

    /// Confined to one tenant: `field` is the entities' tenant field,
    /// `value` its value (see the [module](self)).
    pub fn tenant(mut self, field: &str, value: &str) -> Self {
        self.tenant = Some(Tenant {
            field: field.into(),
            value: tenant::Value::Text(value.into()),
        });
        self
    }

    /// Confined to the tenant an IAM policy variable names when the
    /// request is made, e.g. `aws:PrincipalTag/tenant` (a session tag):
    /// one policy for every tenant.
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "DOC")]
    /// # #[pk("TENANT#<tenant>#DOC#<id>")] struct Doc { tenant: String, id: String }
    /// use dynakey_runtime::table::iam::{Access, Arns};
    /// use dynakey_runtime::Entity;
    /// let any = Access::new("docs", &[Doc::META]).tenant_variable("tenant", "aws:PrincipalTag/tenant");
    /// let doc = any.policy(&Arns::default()).unwrap();
    /// let keys = &doc["Statement"][0]["Condition"]["ForAllValues:StringLike"]["dynamodb:LeadingKeys"];
    /// assert_eq!(keys[0], "TENANT#${aws:PrincipalTag/tenant}#DOC#*");
    /// ```
    pub fn tenant_variable(mut self, field: &str, variable: &str) -> Self {
        self.tenant = Some(Tenant {
            field: field.into(),
            value: tenant::Value::Variable(variable.into()),
        });
        self
    }

    /// Names the policy in the exports (`<Table>Access` by default: the
    /// CloudFormation resource `<Table>Table<label>Policy`); letters and
    /// digits.
    pub fn label(mut self, label: &str) -> Self {
        self.label = label.into();
        self
    }

    /// The table's name.
    pub fn table(&self) -> &str {
        &self.table
    }

    /// The label (see [`Access::label`]).
    pub fn label_text(&self) -> &str {
        &self.label
    }

    /// The actions granted, in order.
    pub fn actions(&self) -> impl Iterator<Item = Action> + '_ {
        self.actions.iter().copied()
    }

    /// The policy document with the ARNs of `arns` (see the [module](self)).
    pub fn policy(&self, arns: &Arns) -> Result<Value, Error> {
        let table = arns.table(&self.table);
        let index = |ix: &str| json!(format!("{table}/index/{ix}"));
        let targets = Targets {
            table: json!(table),
            index: &index,
            stream: json!(format!("{table}/stream/*")),
            literal: &|s| s.to_owned(),
        };
        Ok(json!({"Version": "2012-10-17", "Statement": self.statements(&targets)?}))
    }

    /// The statements, with the resources of `t`.
    pub(crate) fn statements(&self, t: &Targets) -> Result<Vec<Value>, Error> {
        if self.label.is_empty() || !self.label.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(invalid(format!(
                "access label {:?}: use letters and digits",
                self.label
            )));
        }
        let plan = Plan::from_metas(&self.metas)?;
        let reach = match &self.tenant {
            Some(tenant) => {
                if self.actions.contains(&Action::Scan) {
                    return Err(invalid(format!(
                        "a tenant's access to {} cannot scan: a scan names no partition key, so `dynamodb:LeadingKeys` cannot confine it",
                        self.table
                    )));
                }
                if self.actions.contains(&Action::SearchVectors) {
                    return Err(invalid(format!(
                        "a tenant's access to {} cannot search vectors: a search is scoped by its search schema, not by a partition key, so `dynamodb:LeadingKeys` cannot confine it",
                        self.table
                    )));
                }
                if self.actions.iter().any(|a| a.on_stream()) {
                    return Err(invalid(format!(
                        "a tenant's access to {} cannot read the stream: its records carry every tenant's items",
                        self.table
                    )));
                }
                Some(tenant::reach(&self.metas, tenant)?)
            }
            None => None,
        };
        let indexes: Vec<&str> = match &reach {
            Some(r) => r.indexes.clone(),
            None => plan.indexes.keys().copied().collect(),
        };
        let names = |pick: fn(Action) -> bool| -> Vec<&'static str> {
            self.actions
                .iter()
                .filter(|a| pick(**a))
                .map(|a| a.iam())
                .collect()
        };
        let mut out = Vec::new();
        let mut push = |sid: &str, actions: Vec<&str>, resources: Vec<Value>, keyed: bool| {
            if actions.is_empty() || resources.is_empty() {
                return;
            }
            let mut s =
                json!({"Sid": sid, "Effect": "Allow", "Action": actions, "Resource": resources});
            if let (true, Some(r)) = (keyed, &reach) {
                s["Condition"] = leading_keys(r, t);
            }
            out.push(s);
        };
        push(
            "Items",
            names(Action::on_items),
            vec![t.table.clone()],
            true,
        );
        let index_arns = indexes.iter().map(|ix| (t.index)(ix)).collect();
        push("Indexes", names(Action::on_indexes), index_arns, true);
        let mut vectors: Vec<&str> = Vec::new();
        for v in self.metas.iter().flat_map(|m| m.vectors) {
            if !vectors.contains(&v.name) {
                vectors.push(v.name);
            }
        }
        let vector_arns = vectors.iter().map(|ix| (t.index)(ix)).collect();
        push(
            "VectorIndexes",
            names(Action::on_vectors),
            vector_arns,
            false,
        );
        push(
            "Table",
            names(Action::on_table),
            vec![t.table.clone()],
            false,
        );
        push(
            "ResourcePolicy",
            names(Action::on_policy),
            vec![t.table.clone(), t.stream.clone()],
            false,
        );
        push(
            "Stream",
            names(Action::on_stream),
            vec![t.stream.clone()],
            false,
        );
        if out.is_empty() {
            return Err(invalid(format!(
                "the access to {} grants nothing: no action applies to its resources",
                self.table
            )));
        }
        Ok(out)
    }
}

/// The tenant's condition: every partition key named matches one of its
/// patterns, and one is named.
fn leading_keys(r: &Reach, t: &Targets) -> Value {
    let patterns: Vec<String> = r.patterns.iter().map(|p| (t.literal)(p)).collect();
    json!({
        "ForAllValues:StringLike": {"dynamodb:LeadingKeys": patterns},
        "Null": {"dynamodb:LeadingKeys": "false"},
    })
}
