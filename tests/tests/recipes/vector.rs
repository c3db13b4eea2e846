//! The similar-tickets recipe: a search scoped by tenant returns only that
//! tenant's tickets, the filter holds for each, the nearest is the one about
//! the same thing; the searches go through a tenant's handle (`Desk`), which
//! fills the scope; on a backend without vector indexes the recipe says so.

use dynakey_examples::recipes::similar_tickets::{self, Report};

#[tokio::test]
async fn similar_tickets_of_one_tenant() {
    let f = super::fixture(similar_tickets::RECIPE);
    let report = similar_tickets::run(&f.db).await.unwrap();
    let Report::Read {
        similar_open,
        similar_any,
        triage,
        ..
    } = &report
    else {
        eprintln!("skipped: {report}");
        return f.done().await;
    };
    assert!(!similar_open.is_empty() && similar_open.len() <= 3);
    assert!(similar_open
        .iter()
        .all(|h| h.item.tenant == "acme" && h.item.status == "open"));
    // Ticket 3 was closed by an update: the filter attribute moved it.
    assert!(!similar_open.iter().any(|h| h.item.id == "3"));
    assert!(similar_any.iter().all(|h| h.item.tenant == "acme"));
    // About printers: a printer ticket of acme comes back, never globex's.
    assert!(similar_any.iter().any(|h| h.item.subject.contains("rint")));
    assert!(triage.iter().all(|h| !h.item.subject.is_empty()));
    assert!(report.to_string().contains("acme's open tickets like it"));
    f.done().await;
}
