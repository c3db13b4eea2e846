//! Vector indexes in the design views: the Markdown and HTML designs list
//! each of the table's vector indexes where they list its global ones (its
//! vector attribute, dimensions, distance, scope, filter, projection and
//! the entities declaring it), and the NoSQL Workbench model, whose format
//! has no vector index, says in its description what it leaves out. The
//! table is the `similar_tickets` recipe's: two indexes on one embedding.

use dynakey::design::TableDesign;
use dynakey_examples::recipes::similar_tickets::{embed, SupportTable, SupportTicket};
use serde_json::Value;

fn design() -> TableDesign {
    let ticket = SupportTicket {
        tenant: "acme".into(),
        id: "t-1".into(),
        subject: "The printer is out of toner".into(),
        status: "open".into(),
        embedding: embed("printer toner"),
    };
    TableDesign::from_metas("support", SupportTable::ENTITIES)
        .example(&ticket)
        .unwrap()
}

#[test]
fn the_markdown_design_lists_each_vector_index() {
    let md = design().markdown();
    for line in [
        "· no secondary index · vector indexes `SimilarTickets`, `Triage`.",
        "## Vector indexes\n\nEach is searched by nearness to a vector (`SearchVectors`)",
        "| index | vector | dimensions | distance | scope | filter | projection | entities |",
        "| `SimilarTickets` | `embedding` | 4 | `COSINE` | `tenant` S | `status` S | every \
         attribute (`ALL`) | SupportTicket |",
        "| `Triage` | `embedding` | 4 | `COSINE` | — | `status` S | the keys and `subject` \
         (`INCLUDE`) | SupportTicket |",
    ] {
        assert!(md.contains(line), "{line}\n{md}");
    }
    // After the global indexes (none here), before the sparse ones.
    let at = |s: &str| md.find(s).unwrap_or_else(|| panic!("{s}\n{md}"));
    assert!(at("## Indexes") < at("## Vector indexes"));
    assert!(at("## Vector indexes") < at("## Sparse indexes"));
}

#[test]
fn the_html_design_lists_each_vector_index() {
    let html = design().html();
    for part in [
        "<span class=\"chip\">vector <code>SimilarTickets</code></span>",
        "<span class=\"chip\">vector <code>Triage</code></span>",
        "<h2>Vector indexes</h2>",
        "<tr><th>index</th><th>vector</th><th>dimensions</th><th>distance</th><th>scope</th>\
         <th>filter</th><th>projection</th><th>entities</th></tr>",
        "<tr><td><code>SimilarTickets</code></td><td><code>embedding</code></td><td>4</td>\
         <td><code>COSINE</code></td><td><code>tenant</code> S</td><td><code>status</code> S\
         </td><td>every attribute (<code>ALL</code>)</td><td><span class=\"badge e0\">\
         SupportTicket</span></td></tr>",
        "<td>—</td><td><code>status</code> S</td><td>the keys and <code>subject</code> \
         (<code>INCLUDE</code>)</td>",
    ] {
        assert!(html.contains(part), "{part}\n{html}");
    }
    // No Markdown left in the page.
    let section = &html[html.find("<h2>Vector indexes</h2>").unwrap()..];
    let section = &section[..section.find("</table>").unwrap()];
    assert!(!section.contains('`'), "{section}");
}

#[test]
fn the_workbench_model_says_it_leaves_the_vector_indexes_out() {
    let wb: Value = serde_json::from_str(&design().workbench()).unwrap();
    let description = wb["ModelMetadata"]["Description"].as_str().unwrap();
    for sentence in [
        "Vector index SimilarTickets (vector embedding, 4 dimensions, COSINE, scope(tenant), \
         filter(status), projection ALL) is left out: this format has no vector indexes.",
        "Vector index Triage (vector embedding, 4 dimensions, COSINE, scope(), filter(status), \
         projection INCLUDE(subject)) is left out",
    ] {
        assert!(description.contains(sentence), "{sentence}\n{description}");
    }
    // Not a global index of the model.
    let table = &wb["DataModel"][0];
    assert!(table["GlobalSecondaryIndexes"]
        .as_array()
        .unwrap()
        .is_empty());
}

/// A table without vector indexes draws no section for them (the golden
/// designs of `tests/design.rs` hold the rest).
#[test]
fn a_table_without_vector_indexes_draws_none() {
    let shop = (dynakey_examples::designs::find("shop").unwrap().build)().unwrap();
    assert!(!shop.markdown().contains("ector ind"));
    assert!(!shop.html().contains("ector ind"));
    assert!(!shop.workbench().contains("ector ind"));
}
