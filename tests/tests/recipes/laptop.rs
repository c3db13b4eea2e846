//! A production table on a laptop: the export recipe on every backend (a
//! full export loaded and checked by the live view, an incremental export
//! applied and read as typed changes).

use dynakey_examples::recipes::export_to_laptop::{self, Report};
use dynakey_examples::seeds::OrderStatus;

use super::fixture;

#[tokio::test]
async fn an_export_loads_the_live_view_finds_its_problems_and_an_increment_applies() {
    let f = fixture(export_to_laptop::RECIPE);
    export_to_laptop::setup(&f.db).await.unwrap();
    let r: Report = export_to_laptop::run(&f.db).await.unwrap();
    assert_eq!((r.lines, r.loaded), (12, 11));
    assert_eq!(r.bad_lines.len(), 1);
    assert_eq!(r.bad_lines[0].0, 12);
    assert!(
        r.bad_lines[0].1.starts_with("not JSON"),
        "{:?}",
        r.bad_lines
    );
    assert_eq!(r.viewed, (11, true));
    assert_eq!(
        r.counts,
        [
            ("UserProfile", 3),
            ("UserOrder", 4),
            ("OrderInfo", 1),
            ("Product", 2)
        ]
    );
    // Numbers another client wrote as `1.0E1` and `9.990` are no problem.
    let problems: Vec<(&str, &str, &str)> = r
        .problems
        .iter()
        .map(|(p, s, w)| (p.as_str(), s.as_str(), w.as_str()))
        .collect();
    assert_eq!(
        problems,
        [
            ("USER#u1", "ORDER#O7", "keys drifted"),
            ("USER#u2", "CART#current", "matches no entity"),
            ("USER#u3", "#PROFILE", "does not decode"),
        ]
    );
    let changes: Vec<(&str, &str, Vec<&str>)> = r
        .changes
        .iter()
        .map(|(w, k, c)| (w.as_str(), k.as_str(), c.clone()))
        .collect();
    assert_eq!(
        changes,
        [
            ("modified", "USER#u1 / ORDER#o1", vec!["status"]),
            ("removed", "PRODUCT#p2 / #DETAILS", vec![]),
            ("inserted", "USER#u4 / #PROFILE", vec![]),
        ]
    );
    assert_eq!(r.applied, (2, 1));
    assert_eq!(
        (r.o1_status, r.p2_left),
        (Some(OrderStatus::Shipped), false)
    );
    f.done().await;
}
