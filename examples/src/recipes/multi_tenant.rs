//! Seed 001 "Multi-tenant prefix": the tenant is the partition key, so
//! tenancy is the address, not a filter. A [`Tenant`] handle is built once
//! from the caller's identity and fixes the tenant of every key it builds:
//! none of its methods takes a tenant, so code holding it cannot name
//! another tenant's partition.

use std::fmt;

use dynakey::table::iam::Access;
use dynakey::{Db, Entity, Error, Page};

use crate::report::{Printout, Table};
use crate::seeds::TenantDoc;

super::recipe!(
    "multi_tenant",
    "001 Multi-tenant prefix",
    "TENANT#<tenant>: a tenant-scoped handle that cannot name another tenant's partition"
);

/// A handle on one tenant's partition. The tenant is private and set once.
///
/// ```compile_fail
/// # fn f(acme: dynakey_examples::recipes::multi_tenant::Tenant) {
/// acme.tenant = "globex".into(); // private: a handle cannot be re-pointed
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct Tenant {
    db: Db,
    tenant: String,
}

impl Tenant {
    /// The handle of `tenant` (in a service: the tenant of the
    /// authenticated caller, derived once per request).
    ///
    /// A tenant name is lowercase ASCII letters, digits and `-`: the
    /// delimiter `#` is refused, so no name can reach into a key of
    /// another shape.
    pub fn new(db: &Db, tenant: &str) -> Result<Self, Error> {
        let ok = !tenant.is_empty()
            && tenant
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
        if !ok {
            return Err(Error::Refused {
                reason: dynakey::RefusedReason::Other,
                message: format!("tenant name {tenant:?}: use a-z, 0-9 and -"),
            });
        }
        TenantDoc::pk(tenant)?;
        Ok(Self {
            db: db.clone(),
            tenant: tenant.to_owned(),
        })
    }

    /// The tenant this handle is scoped to.
    pub fn name(&self) -> &str {
        &self.tenant
    }

    /// What this handle sends, as IAM sees it: reads and writes of the
    /// tenant's documents, confined by `dynamodb:LeadingKeys` to its
    /// partition (`TENANT#acme`). The role a request of this tenant runs
    /// under gets [`Access::policy`], so even code that bypasses the
    /// handle cannot reach another tenant's items.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use dynakey::table::iam::Arns;
    /// let db = dynakey::local::memory().unwrap().db("docs");
    /// let acme = dynakey_examples::recipes::multi_tenant::Tenant::new(&db, "acme").unwrap();
    /// let policy = acme.access().policy(&Arns::default()).unwrap();
    /// let keys = &policy["Statement"][0]["Condition"]["ForAllValues:StringLike"]["dynamodb:LeadingKeys"];
    /// assert_eq!(keys, &serde_json::json!(["TENANT#acme"]));
    /// # });
    /// ```
    pub fn access(&self) -> Access {
        tenant_access(self.db.table_name()).tenant("tenant", &self.tenant)
    }

    /// The access of every tenant's handle in one policy, the tenant named
    /// by the role session's tag `tenant` (`aws:PrincipalTag/tenant`).
    pub fn access_by_tag(table: &str) -> Access {
        tenant_access(table).tenant_variable("tenant", "aws:PrincipalTag/tenant")
    }

    /// Writes a document of this tenant.
    pub async fn put(&self, doc_id: &str, title: &str) -> Result<(), Error> {
        self.db
            .put(&TenantDoc {
                tenant: self.tenant.clone(),
                doc_id: doc_id.into(),
                title: title.into(),
            })
            .await
            .map(|_| ())
    }

    /// Reads a document of this tenant.
    pub async fn get(&self, doc_id: &str) -> Result<Option<TenantDoc>, Error> {
        self.db.get(TenantDoc::key(&self.tenant, doc_id)?).await
    }

    /// A page of `page_size` of this tenant's documents.
    pub async fn list(
        &self,
        page_size: u32,
        cursor: Option<&str>,
    ) -> Result<Page<TenantDoc>, Error> {
        self.db
            .query(TenantDoc::pk(&self.tenant)?)
            .sk(TenantDoc::sk().begins_with()?)
            .page_size(page_size)
            .page(cursor)
            .await
    }
}

/// A tenant's reads and writes of table `table`, before it is confined.
fn tenant_access(table: &str) -> Access {
    Access::new(table, &[TenantDoc::META]).label("Tenant")
}

/// What the recipe read.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// acme's documents, read in pages of 2: the pages' doc ids.
    pub acme_pages: Vec<Vec<String>>,
    /// globex's documents.
    pub globex: Vec<String>,
    /// acme asking for globex's doc id `g1`: it reads `TENANT#acme`.
    pub acme_get_g1: Option<TenantDoc>,
    /// globex reading its own `g1`.
    pub globex_get_g1: Option<TenantDoc>,
    /// A tenant name holding the delimiter is refused.
    pub bad_tenant: String,
}

/// Creates the table.
pub async fn setup(db: &Db) -> Result<(), Error> {
    db.create_table(&[TenantDoc::META]).await
}

/// Writes three documents of acme and two of globex through their
/// handles, then reads through each handle.
pub async fn run(db: &Db) -> Result<Report, Error> {
    let acme = Tenant::new(db, "acme")?;
    let globex = Tenant::new(db, "globex")?;
    for (id, title) in [("a1", "Plan"), ("a2", "Budget"), ("a3", "Roadmap")] {
        acme.put(id, title).await?;
    }
    for (id, title) in [("g1", "Secret"), ("g2", "Payroll")] {
        globex.put(id, title).await?;
    }
    let mut acme_pages = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let page = acme.list(2, cursor.as_deref()).await?;
        acme_pages.push(page.items.iter().map(|d| d.doc_id.clone()).collect());
        match page.cursor {
            Some(c) => cursor = Some(c),
            None => break,
        }
    }
    let globex_docs = globex
        .list(50, None)
        .await?
        .items
        .into_iter()
        .map(|d| d.doc_id)
        .collect();
    let bad_tenant = match Tenant::new(db, "acme#globex") {
        Err(e) => e.to_string(),
        Ok(t) => format!("accepted {}", t.name()),
    };
    Ok(Report {
        acme_pages,
        globex: globex_docs,
        acme_get_g1: acme.get("g1").await?,
        globex_get_g1: globex.get("g1").await?,
        bad_tenant,
    })
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut p = Printout::new();
        let mut t = Table::new("acme's documents, pages of 2", ["page", "doc ids"]);
        for (i, page) in self.acme_pages.iter().enumerate() {
            t.push([(i + 1).to_string(), page.join(" ")]);
        }
        p.table(t);
        p.note(format!("globex's documents: {:?}", self.globex));
        p.table(
            Table::new("one doc id, two handles", ["handle", "get(\"g1\")"])
                .row([
                    "acme".to_owned(),
                    format!("{:?}", self.acme_get_g1.as_ref().map(|d| &d.title)),
                ])
                .row([
                    "globex".to_owned(),
                    format!("{:?}", self.globex_get_g1.as_ref().map(|d| &d.title)),
                ]),
        );
        p.note(format!("tenant \"acme#globex\": {}", self.bad_tenant));
        p.fmt(f)
    }
}
