//! Similar support tickets of one tenant: a vector index scoped by tenant
//! (`scope(tenant)`, DynamoDB's `HASH` search-schema element) and filtered
//! by status, searched through the typed call. A search names its tenant
//! in full and can return no other tenant's ticket; a filter reaches only
//! the declared filter fields; the search vector has the index's length by
//! type (`[f32; 4]`). A second index, across tenants and holding only the
//! subject, serves staff triage.
//!
//! The embeddings here are four hand-made numbers per ticket (how much it
//! is about printers, billing, logins and the network); a service would
//! store a model's embedding of the text.
//!
//! A [`Desk`] is a tenant's handle, as in the multi-tenant recipe: built
//! once from the caller's tenant, it fills the scope of every search it
//! makes, so code holding it cannot search another tenant's tickets.
//!
//! On a backend without vector indexes (moto) the recipe says so and reads
//! nothing: it probes the backend by creating its table and searching it.

use std::fmt;

use dynakey::vector::Scored;
use dynakey::{Db, DynamoEntity, DynamoProjection, DynamoTable, Error};

use crate::report::{Printout, Table};

/// This recipe, for the tour.
pub const RECIPE: super::Recipe = super::Recipe {
    name: "similar_tickets",
    seed: "vector indexes (issue 44)",
    about: "the tickets of one tenant most like a new one, by a vector index scoped by tenant",
    run: |db| Box::pin(async move { Ok(run(&db).await?.to_string()) }),
    tables: |db| vec![db.clone()],
};

/// A support ticket with its embedding.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "TICKET")]
#[pk("TENANT#<tenant>")]
#[sk("TICKET#<id>")]
#[vector_index(
    "SimilarTickets",
    vector = embedding,
    dimensions = 4,
    distance = "COSINE",
    scope(tenant),
    filter(status)
)]
#[vector_index(
    "Triage",
    vector = embedding,
    dimensions = 4,
    distance = "COSINE",
    filter(status),
    projection = "INCLUDE(subject)"
)]
pub struct SupportTicket {
    /// The tenant (the scope of a search).
    pub tenant: String,
    /// The ticket's id.
    pub id: String,
    /// One line on the problem.
    pub subject: String,
    /// `open` or `closed`.
    pub status: String,
    /// The embedding of the subject.
    pub embedding: [f32; 4],
}

/// What staff triage reads: the index holds the subject only.
#[derive(DynamoProjection, Debug, Clone, PartialEq)]
#[dynamo(of = SupportTicket)]
pub struct TicketSubject {
    /// The subject.
    pub subject: String,
}

/// The recipe's table.
#[derive(DynamoTable)]
#[dynamo(entities(SupportTicket))]
pub struct SupportTable;

/// A toy embedding: how much `text` is about printers, billing, logins and
/// the network.
pub fn embed(text: &str) -> [f32; 4] {
    let topics: [&[&str]; 4] = [
        &["printer", "paper", "toner", "print"],
        &["invoice", "billing", "charge", "refund"],
        &["login", "password", "sso", "locked"],
        &["network", "vpn", "wifi", "offline"],
    ];
    let text = text.to_lowercase();
    let mut v = [0.05f32; 4];
    for (i, words) in topics.iter().enumerate() {
        v[i] += words.iter().filter(|w| text.contains(*w)).count() as f32;
    }
    v
}

fn ticket(tenant: &str, id: &str, subject: &str, status: &str) -> SupportTicket {
    SupportTicket {
        tenant: tenant.into(),
        id: id.into(),
        subject: subject.into(),
        status: status.into(),
        embedding: embed(subject),
    }
}

/// One tenant's support desk: writes and searches that tenant's tickets.
/// The tenant is private and set once; no method takes one.
///
/// ```compile_fail
/// # fn f(acme: dynakey_examples::recipes::similar_tickets::Desk) {
/// acme.tenant = "globex".into(); // private: a handle cannot be re-pointed
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct Desk {
    db: Db,
    tenant: String,
}

impl Desk {
    /// The desk of `tenant`; a tenant its key or the index's scope cannot
    /// hold is refused here, once.
    ///
    /// ```
    /// let db = dynakey::local::memory().unwrap().db("support");
    /// use dynakey_examples::recipes::similar_tickets::Desk;
    /// assert_eq!(Desk::new(&db, "acme").unwrap().tenant(), "acme");
    /// ```
    pub fn new(db: &Db, tenant: &str) -> Result<Self, Error> {
        SupportTicket::similar_tickets(tenant)?;
        Ok(Self {
            db: db.clone(),
            tenant: tenant.to_owned(),
        })
    }

    /// The tenant this desk serves.
    pub fn tenant(&self) -> &str {
        &self.tenant
    }

    /// Opens a ticket of this tenant.
    pub async fn open(&self, id: &str, subject: &str) -> Result<SupportTicket, Error> {
        let t = ticket(&self.tenant, id, subject, "open");
        self.db.put(&t).await?;
        Ok(t)
    }

    /// This tenant's `k` tickets most like `text`, of status `status` or
    /// of any: the search's scope is the desk's tenant.
    pub async fn like(
        &self,
        text: &str,
        status: Option<&str>,
        k: u32,
    ) -> Result<Vec<Scored<SupportTicket>>, Error> {
        let search = self
            .db
            .search(SupportTicket::similar_tickets(&self.tenant)?, &embed(text))
            .top_k(k);
        match status {
            Some(s) => search.filter(|f| f.status.eq(s)).await,
            None => search.await,
        }
    }
}

/// What the recipe read.
#[derive(Debug, Clone, PartialEq)]
pub enum Report {
    /// The backend has no vector indexes: why, as it answered.
    Skipped(String),
    /// The searches' results.
    Read {
        /// The new ticket's text.
        query: String,
        /// Acme's open tickets most like it, nearest first.
        similar_open: Vec<Scored<SupportTicket>>,
        /// Acme's tickets of any status most like it.
        similar_any: Vec<Scored<SupportTicket>>,
        /// Open tickets of every tenant like it (staff triage).
        triage: Vec<Scored<TicketSubject>>,
    },
}

/// Creates the table; `Err` with the backend's answer when it has no vector
/// indexes (it refuses the table, or a search of it).
async fn probe(db: &Db) -> Result<(), Error> {
    db.create_table(SupportTable::ENTITIES).await?;
    db.search(SupportTicket::similar_tickets("probe")?, &[1.0; 4])
        .top_k(1)
        .await?;
    Ok(())
}

/// Writes the tickets of two tenants, then searches for the ones like a new
/// ticket of one of them.
pub async fn run(db: &Db) -> Result<Report, Error> {
    if let Err(e) = probe(db).await {
        return Ok(Report::Skipped(e.to_string()));
    }
    let (acme, globex) = (Desk::new(db, "acme")?, Desk::new(db, "globex")?);
    for (id, subject) in [
        ("1", "Printer out of toner on floor 2"),
        ("2", "Invoice charged twice, need a refund"),
        ("3", "Printer jams on A3 paper"),
        ("4", "Locked out after password reset"),
        ("5", "Print queue stuck, printer offline"),
    ] {
        acme.open(id, subject).await?;
    }
    globex.open("1", "Printer prints blank pages").await?;
    // Closed through the table handle: the filter attribute moves the
    // ticket out of the open searches.
    db.update(SupportTicket::update("acme", "3").set_status("closed"))
        .await?;
    let query = "The printer on floor 3 is out of paper".to_owned();
    let v = embed(&query);
    let similar_open = acme.like(&query, Some("open"), 3).await?;
    let similar_any = acme.like(&query, None, 3).await?;
    let triage = db
        .search(SupportTicket::triage(), &v)
        .top_k(3)
        .filter(|f| f.status.eq("open"))
        .project::<TicketSubject>()
        .await?;
    Ok(Report::Read {
        query,
        similar_open,
        similar_any,
        triage,
    })
}

fn tickets(title: &str, hits: &[Scored<SupportTicket>]) -> Table {
    let mut t = Table::new(title, ["tenant", "id", "status", "subject", "distance"]);
    for h in hits {
        let i = &h.item;
        t.push([
            i.tenant.clone(),
            i.id.clone(),
            i.status.clone(),
            i.subject.clone(),
            format!("{:.3}", h.score),
        ]);
    }
    t
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Report::Skipped(why) => {
                write!(f, "  skipped: the backend has no vector indexes ({why})")
            }
            Report::Read {
                query,
                similar_open,
                similar_any,
                triage,
            } => {
                let mut triaged = Table::new(
                    "open tickets of every tenant like it (Triage, subject only)",
                    ["subject", "distance"],
                );
                for h in triage {
                    triaged.push([h.item.subject.clone(), format!("{:.3}", h.score)]);
                }
                Printout::new()
                    .note(format!("new ticket of acme: {query:?}"))
                    .table(tickets("acme's open tickets like it", similar_open))
                    .table(tickets("acme's tickets of any status like it", similar_any))
                    .table(triaged)
                    .fmt(f)
            }
        }
    }
}
