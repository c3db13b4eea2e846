//! A `tracing` subscriber that keeps every span's fields, for asserting
//! what the runtime records.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, Once};

use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::subscriber::{DefaultGuard, Interest};
use tracing::{Event, Metadata, Subscriber};

/// A capture installed for the current thread until the guard drops.
///
/// A global subscriber that listens to nothing but keeps every callsite's
/// interest at "sometimes" is installed first: otherwise a span callsite
/// first reached by a test thread without a subscriber can be cached as
/// "never" while another thread installs its capture (a race of
/// `set_default` in parallel tests), and that capture would miss it.
pub fn capture() -> (Capture, DefaultGuard) {
    static GLOBAL: Once = Once::new();
    GLOBAL.call_once(|| {
        let _ = tracing::subscriber::set_global_default(Quiet);
    });
    let cap = Capture::default();
    let guard = tracing::subscriber::set_default(cap.clone());
    (cap, guard)
}

/// Listens to nothing, and never lets a callsite be cached as disabled.
struct Quiet;

impl Subscriber for Quiet {
    fn register_callsite(&self, _: &'static Metadata<'static>) -> Interest {
        Interest::sometimes()
    }
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        false
    }
    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }
    fn record(&self, _: &Id, _: &Record<'_>) {}
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, _: &Event<'_>) {}
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

/// One captured span: its name and fields (values as text).
#[derive(Debug, Clone)]
pub struct Captured {
    pub name: &'static str,
    pub fields: HashMap<String, String>,
}

impl Captured {
    pub fn get(&self, field: &str) -> Option<&str> {
        self.fields.get(field).map(String::as_str)
    }

    pub fn num(&self, field: &str) -> Option<f64> {
        self.get(field).and_then(|v| v.parse().ok())
    }
}

/// Captures spans; clones share them.
#[derive(Clone, Default)]
pub struct Capture {
    spans: Arc<Mutex<Vec<Captured>>>,
}

struct Fields<'a>(&'a mut HashMap<String, String>);

impl Visit for Fields<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }
    fn record_f64(&mut self, field: &Field, value: f64) {
        self.0.insert(field.name().to_owned(), value.to_string());
    }
    fn record_u64(&mut self, field: &Field, value: u64) {
        self.0.insert(field.name().to_owned(), value.to_string());
    }
    fn record_i64(&mut self, field: &Field, value: i64) {
        self.0.insert(field.name().to_owned(), value.to_string());
    }
}

impl Capture {
    /// The request spans of dynakey captured so far.
    pub fn requests(&self) -> Vec<Captured> {
        let spans = self.spans.lock().unwrap();
        spans
            .iter()
            .filter(|s| s.name == "dynakey.request")
            .cloned()
            .collect()
    }

    /// The request spans of operation `op`.
    pub fn of(&self, op: &str) -> Vec<Captured> {
        self.requests()
            .into_iter()
            .filter(|s| s.get("db.operation.name") == Some(op))
            .collect()
    }
}

impl Subscriber for Capture {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }

    fn new_span(&self, attrs: &Attributes<'_>) -> Id {
        let mut fields = HashMap::new();
        attrs.record(&mut Fields(&mut fields));
        let mut spans = self.spans.lock().unwrap();
        spans.push(Captured {
            name: attrs.metadata().name(),
            fields,
        });
        Id::from_u64(spans.len() as u64)
    }

    fn record(&self, span: &Id, values: &Record<'_>) {
        let mut spans = self.spans.lock().unwrap();
        if let Some(s) = spans.get_mut(span.into_u64() as usize - 1) {
            values.record(&mut Fields(&mut s.fields));
        }
    }

    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, _: &Event<'_>) {}
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}
