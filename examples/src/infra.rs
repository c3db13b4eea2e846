//! Every example table as infrastructure: the design catalogue's tables
//! with the default options, the task-counts table with the stream its
//! handler consumes, the documented table (a local index and TTL), a
//! catalogue of products read through narrow projections, and the shop
//! with every production setting, on demand and provisioned. What
//! `cargo run --example design -- export ..` writes and the golden and
//! cfn-lint tests (`examples/tests/infra.rs`) check.
//!
//! ```
//! let all = dynakey_examples::infra::tables();
//! let shop = all.iter().find(|t| t.name == "shop-production").unwrap();
//! assert!(shop.options.deletion_protection);
//! assert!(all.iter().any(|t| t.name == "task-counts" && t.options.stream.is_some()));
//! ```

use dynakey::table::export::{self, CloudFormation, Terraform};
use dynakey::table::iam::{Access, Action};
use dynakey::table::{
    Billing, Encryption, PointInTimeRecovery, TableClass, TableOptions, WarmThroughput,
};
use dynakey::{DynamoEntity, DynamoTable, EntityMeta, Error};

use crate::designs::{self, tables::Shop};
use crate::documented::DocTable;
use crate::recipes::multi_tenant::Tenant;
use crate::task_counts::TaskCountsTable;

/// A product of a catalogue: a keys-only index by category and an index
/// of titles that holds the title and the price.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "PRODUCT")]
#[pk("PRODUCT#<sku>")]
#[sk("DETAILS")]
#[gsi(
    "ByCategory",
    pk = "CATEGORY#<category>",
    sk = "PRODUCT#<sku>",
    projection = "KEYS_ONLY"
)]
#[gsi(
    "ByTitle",
    pk = "TITLES",
    sk = "TITLE#<title>",
    projection = "INCLUDE(title, price)"
)]
pub struct CatalogProduct {
    /// Stock-keeping unit.
    pub sku: String,
    /// Its category.
    pub category: String,
    /// Its title.
    pub title: String,
    /// Price in cents.
    pub price: u64,
    /// A long description, only in the table.
    pub description: String,
}

/// The catalogue's table.
#[derive(DynamoTable)]
#[dynamo(entities(CatalogProduct))]
pub struct Catalog;

/// One table: its name, entities and options.
#[derive(Debug, Clone)]
pub struct Table {
    /// The table name (the export's name, and its file names).
    pub name: &'static str,
    /// Its entities.
    pub entities: Vec<&'static EntityMeta>,
    /// Its options.
    pub options: TableOptions,
    /// The accesses the code declares, each exported as a least-privilege
    /// policy beside the table.
    pub access: Vec<Access>,
}

impl Table {
    /// Its CloudFormation template, with the policy of each access.
    pub fn cloudformation(&self) -> Result<CloudFormation, Error> {
        let cfn = export::cloudformation(self.name, &self.entities, &self.options)?;
        self.access.iter().try_fold(cfn, |t, a| t.with_access(a))
    }

    /// Its Terraform document, with the policy of each access.
    pub fn terraform(&self) -> Result<Terraform, Error> {
        let tf = export::terraform(self.name, &self.entities, &self.options)?;
        self.access.iter().try_fold(tf, |t, a| t.with_access(a))
    }
}

/// The shop with every setting the entities cannot know.
pub fn production() -> TableOptions {
    Shop::options()
        .billing(Billing::OnDemand {
            max_read: Some(4_000),
            max_write: Some(1_000),
        })
        .warm_throughput(WarmThroughput {
            read_units_per_second: 12_000,
            write_units_per_second: 4_000,
        })
        .point_in_time_recovery(PointInTimeRecovery {
            recovery_period_days: Some(14),
        })
        .deletion_protection()
        .table_class(TableClass::Standard)
        .encryption(Encryption::Kms {
            key: Some("alias/shop-table".into()),
        })
        .tag("team", "shop")
        .tag("cost-center", "4711")
        .resource_policy(
            r#"{"Version":"2012-10-17","Statement":[{"Sid":"DenyOutsideTls","Effect":"Deny","Principal":"*","Action":"dynamodb:*","Resource":"*","Condition":{"Bool":{"aws:SecureTransport":"false"}}}]}"#,
        )
}

/// Every example table (see the module's example).
pub fn tables() -> Vec<Table> {
    let mut out: Vec<Table> = designs::ALL
        .iter()
        .map(|e| Table {
            name: e.name,
            entities: (e.build)().expect("the catalogue builds").metas(),
            options: TableOptions::default(),
            // The tenants' role, one policy for all (the session's tag).
            access: match e.name {
                "multi_tenant" => vec![Tenant::access_by_tag(e.name)],
                _ => Vec::new(),
            },
        })
        .collect();
    out.push(Table {
        name: "task-counts",
        entities: TaskCountsTable::ENTITIES.to_vec(),
        options: TaskCountsTable::options(),
        // The handler: reads the stream, writes the counts.
        access: vec![Access::new("task-counts", TaskCountsTable::ENTITIES)
            .stream()
            .label("Handler")],
    });
    out.push(Table {
        name: "documented",
        entities: DocTable::ENTITIES.to_vec(),
        options: DocTable::options().point_in_time_recovery(PointInTimeRecovery::default()),
        access: Vec::new(),
    });
    out.push(Table {
        name: "catalog",
        entities: Catalog::ENTITIES.to_vec(),
        options: Catalog::options().table_class(TableClass::StandardInfrequentAccess),
        // A storefront that only reads the catalogue.
        access: vec![Access::new("catalog", Catalog::ENTITIES)
            .read_only()
            .label("Storefront")],
    });
    out.push(Table {
        name: "shop-production",
        entities: Shop::ENTITIES.to_vec(),
        options: production(),
        // The service's reads and writes, and an operator's scans apart.
        access: vec![
            Access::new("shop-production", Shop::ENTITIES).label("Service"),
            Access::new("shop-production", Shop::ENTITIES)
                .only(&[Action::Scan, Action::DescribeTable])
                .label("Operator"),
        ],
    });
    out.push(Table {
        name: "shop-provisioned",
        entities: Shop::ENTITIES.to_vec(),
        options: Shop::options()
            .billing(Billing::Provisioned {
                read: 25,
                write: 10,
            })
            .encryption(Encryption::Kms { key: None }),
        access: Vec::new(),
    });
    out
}

/// The table named `name` (see [`tables`]).
pub fn find(name: &str) -> Option<Table> {
    tables().into_iter().find(|t| t.name == name)
}

/// The export of table `name` in `format`: `cfn-json`, `cfn-yaml` or
/// `terraform` (`.tf.json`).
///
/// ```
/// let yaml = dynakey_examples::infra::export("catalog", "cfn-yaml").unwrap();
/// assert!(yaml.contains("ProjectionType: \"INCLUDE\""));
/// assert!(dynakey_examples::infra::export("catalog", "xml").is_err());
/// ```
pub fn export(name: &str, format: &str) -> Result<String, String> {
    let t =
        find(name).ok_or_else(|| format!("no table named {name:?} (`design list` lists them)"))?;
    let text = match format {
        "cfn-json" => t.cloudformation().map(|c| c.json()),
        "cfn-yaml" => t.cloudformation().map(|c| c.yaml()),
        "terraform" => t.terraform().map(|t| t.json()),
        other => {
            return Err(format!(
                "unknown format {other:?}: cfn-json, cfn-yaml or terraform"
            ))
        }
    };
    text.map_err(|e| e.to_string())
}
