//! trybuild cases live in `ui/`; see `tests/ui.rs`.
