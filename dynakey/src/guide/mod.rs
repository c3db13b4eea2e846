// The guide's pages are doc-only modules, as clap's `_derive` and
// `_tutorial` are: each module holds nothing but its page (a Markdown file
// beside this one, shipped in the crate), so rustdoc renders the page on
// docs.rs and `cargo test --doc` compiles and runs every example in it.
// Inner doc attributes, so that a page's links resolve from its own
// module (`super::_11_guarantees` is a sibling page).
#![doc = include_str!("index.md")]

pub mod _01_tutorial {
    #![doc = include_str!("tutorial.md")]
}

pub mod _02_templates {
    #![doc = include_str!("templates.md")]
}

pub mod _03_diagnostics {
    #![doc = include_str!("diagnostics.md")]
}

pub mod _04_tables_and_unions {
    #![doc = include_str!("tables.md")]
}

pub mod _05_updates_and_conditions {
    #![doc = include_str!("updates.md")]
}

pub mod _06_native_keys {
    #![doc = include_str!("native_keys.md")]
}

pub mod _07_data_rules {
    #![doc = include_str!("data_rules.md")]
}

// The page shows the `#[test]` a user adds to keep a committed file
// current; its doctest checks the same call in `main`.
#[allow(clippy::test_attr_in_doctest)]
pub mod _08_schema_evolution {
    #![doc = include_str!("schema_evolution.md")]
}

// The page shows the `#[test]` a user adds to keep a committed file
// current; its doctest checks the same call in `main`.
#[allow(clippy::test_attr_in_doctest)]
pub mod _09_infrastructure {
    #![doc = include_str!("infrastructure.md")]
}

pub mod _10_change_data {
    #![doc = include_str!("change_data.md")]
}

pub mod _11_guarantees {
    #![doc = include_str!("guarantees.md")]
}

pub mod _12_backends_and_testing {
    #![doc = include_str!("backends.md")]
}

pub mod _13_observability_and_cost {
    #![doc = include_str!("observability.md")]
}

pub mod _14_performance {
    #![doc = include_str!("performance.md")]
}

pub mod _15_vector_indexes {
    #![doc = include_str!("vector_indexes.md")]
}
