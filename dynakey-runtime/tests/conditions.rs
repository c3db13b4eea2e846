//! Keys and sort-key conditions of random templates, against a model.
//!
//! A template here is 2 to 4 placeholders over every format (strings,
//! `path`, `d<w>`, `n<w>`, `n<w>.<p>`, `rev`, uuids, dates, instants,
//! booleans) with the delimiters `#`, `|`, `-`, `.` and `:` (the last two
//! only after fixed-width fields, as DYNA115 requires). Values are the nasty
//! ones: spaces, punctuation, every delimiter, the escape character, control
//! characters, non-ASCII, numeric extremes.
//!
//! The runtime's [`KeyWriter`] and [`KeyReader`] are what generated code
//! calls, so these properties are properties of every derived entity:
//! - keys sort as their fields' values (a `rev` field the other way);
//! - a key reads back into its fields, and any text that reads back writes
//!   back to itself (and reading never panics);
//! - every condition at every depth selects exactly the rows a filter over
//!   the values selects (in memory for every case, on the engine for a
//!   sample).
//!
//! Native index keys (`native`): a native-keyed entity's conditions over
//! every key type against a model, on the engine.

// The futures of a native query read are deep (pages, fan-out, decoding).
#![recursion_limit = "256"]

#[path = "conditions/native.rs"]
mod native;

use std::cmp::Ordering;
use std::collections::BTreeSet;

use dynakey_runtime::key::{form, KeyReader, KeyTemplate, KeyWriter, PartFormat, TemplatePart};
use dynakey_runtime::{KeyFormatError, KeyFormatReason, SortKeyOp};
use proptest::prelude::*;
use rust_decimal::Decimal;
use time::{Date, OffsetDateTime};
use uuid::Uuid;

// ---------------------------------------------------------------- the model

#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    Str,
    Path,
    Padded(u32),
    Signed(u32),
    Dec(u32, u32),
    Rev,
    Uuid,
    Date,
    Instant,
    Bool,
}

impl Kind {
    fn format(self) -> PartFormat {
        match self {
            Kind::Padded(w) => PartFormat::Padded(w),
            Kind::Signed(w) => PartFormat::Signed(w),
            Kind::Dec(w, p) => PartFormat::Decimal(w, p),
            Kind::Rev => PartFormat::Reverse,
            Kind::Path => PartFormat::Path,
            _ => PartFormat::Text,
        }
    }

    /// Whether the text varies in width (so is escaped, and needs a
    /// delimiter below `0` after it).
    fn varies(self) -> bool {
        matches!(self, Kind::Str | Kind::Path | Kind::Bool)
    }
}

#[derive(Debug, Clone, PartialEq)]
enum V {
    S(String),
    U(u64),
    I(i64),
    D(Decimal),
    R(i64),
    Id(Uuid),
    Day(Date),
    At(OffsetDateTime),
    B(bool),
}

impl V {
    /// Value order, for values of one kind.
    fn cmp(&self, other: &V) -> Ordering {
        match (self, other) {
            (V::S(a), V::S(b)) => a.cmp(b),
            (V::U(a), V::U(b)) => a.cmp(b),
            (V::I(a), V::I(b)) => a.cmp(b),
            (V::D(a), V::D(b)) => a.cmp(b),
            (V::R(a), V::R(b)) => a.cmp(b),
            (V::Id(a), V::Id(b)) => a.cmp(b),
            (V::Day(a), V::Day(b)) => a.cmp(b),
            (V::At(a), V::At(b)) => a.cmp(b),
            (V::B(a), V::B(b)) => a.cmp(b),
            _ => panic!("values of two kinds: {self:?} {other:?}"),
        }
    }

    /// The order of keys: value order, but newest first under `rev`.
    fn key_cmp(&self, other: &V) -> Ordering {
        match (self, other) {
            (V::R(a), V::R(b)) => b.cmp(a),
            _ => self.cmp(other),
        }
    }

    fn write(&self, w: &mut KeyWriter) -> Result<(), KeyFormatError> {
        match self {
            V::S(s) => w.write_str(s),
            V::U(n) => w.write(form::padded(), n),
            V::I(n) => w.write(form::signed(), n),
            V::D(d) => w.write(form::decimal(), d),
            V::R(ms) => w.write(form::reverse(), ms),
            V::Id(u) => w.write(form::text(), u),
            V::Day(d) => w.write(form::text(), d),
            V::At(t) => w.write(form::text(), t),
            V::B(b) => w.write(form::text(), b),
        }
    }
}

fn read(kind: Kind, r: &mut KeyReader<'_>) -> Result<V, KeyFormatError> {
    Ok(match kind {
        Kind::Str | Kind::Path => V::S(r.str()?),
        Kind::Padded(_) => V::U(r.padded()?),
        Kind::Signed(_) => V::I(r.signed()?),
        Kind::Dec(..) => V::D(r.decimal()?),
        Kind::Rev => V::R(r.reverse()?),
        Kind::Uuid => V::Id(r.text()?),
        Kind::Date => V::Day(r.text()?),
        Kind::Instant => V::At(r.text()?),
        Kind::Bool => V::B(r.text()?),
    })
}

/// A random template, leaked so it is `'static` like a derived one.
#[derive(Debug, Clone)]
struct Tpl {
    t: &'static KeyTemplate,
    kinds: Vec<Kind>,
}

impl Tpl {
    fn new(prefix: &str, kinds: Vec<Kind>, lits: Vec<String>, trailing: Option<String>) -> Self {
        let mut parts = Vec::new();
        let mut text = String::new();
        if !prefix.is_empty() {
            parts.push(TemplatePart::Lit(leak(prefix.to_owned())));
            text.push_str(prefix);
        }
        for (i, k) in kinds.iter().enumerate() {
            let name = leak(format!("f{i}"));
            parts.push(TemplatePart::Field {
                name,
                format: k.format(),
            });
            text.push_str(&format!("<{name}>"));
            let lit = if i + 1 < kinds.len() {
                Some(lits[i].clone())
            } else {
                trailing.clone()
            };
            if let Some(l) = lit {
                text.push_str(&l);
                parts.push(TemplatePart::Lit(leak(l)));
            }
        }
        let parts: &'static [TemplatePart] = Box::leak(parts.into_boxed_slice());
        let t = Box::leak(Box::new(KeyTemplate::new("T", leak(text), parts)));
        Tpl { t, kinds }
    }

    fn write(&self, row: &[V]) -> Result<String, KeyFormatError> {
        let mut w = KeyWriter::new(self.t);
        for v in row {
            v.write(&mut w)?;
        }
        w.finish()
    }

    fn read(&self, key: &str) -> Result<Vec<V>, KeyFormatError> {
        let mut r = KeyReader::new(self.t, key)?;
        let mut out = Vec::new();
        for k in &self.kinds {
            out.push(read(*k, &mut r)?);
        }
        r.end()?;
        Ok(out)
    }

    /// A writer with the first `depth` fields of `row` written.
    fn at(&self, row: &[V], depth: usize) -> KeyWriter {
        let mut w = KeyWriter::new(self.t);
        for v in &row[..depth] {
            v.write(&mut w).expect("a stored row writes");
        }
        w
    }
}

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

// ---------------------------------------------------------------- strategies

/// Characters that break naive keys: every delimiter, the escape
/// characters, a space, controls, non-ASCII, high planes.
const NASTY: &[char] = &[
    ' ',
    '!',
    '"',
    '#',
    '$',
    '%',
    '&',
    '-',
    '.',
    '/',
    ':',
    '|',
    '0',
    '9',
    'A',
    'a',
    'b',
    '~',
    '\u{1}',
    '\u{7f}',
    'é',
    '\u{FFFF}',
    '😀',
    '\u{10FFFD}',
];

fn text(path: bool) -> impl Strategy<Value = String> {
    let alpha: Vec<char> = NASTY
        .iter()
        .copied()
        .filter(|c| !path || *c >= ' ')
        .collect();
    prop_oneof![
        3 => prop::collection::vec(prop::sample::select(alpha), 1..5)
            .prop_map(|v| v.into_iter().collect::<String>()),
        1 => "[ -~\u{a0}-\u{ff}]{1,8}",
    ]
}

fn kind(last: bool) -> impl Strategy<Value = Kind> {
    prop_oneof![
        4 => Just(Kind::Str),
        if last { 1 } else { 0 } => Just(Kind::Path),
        1 => (1u32..5).prop_map(Kind::Padded),
        1 => (1u32..4).prop_map(Kind::Signed),
        1 => (1u32..4, 0u32..3).prop_map(|(w, p)| Kind::Dec(w, p)),
        1 => Just(Kind::Rev),
        1 => Just(Kind::Uuid),
        1 => Just(Kind::Date),
        1 => Just(Kind::Instant),
        1 => Just(Kind::Bool),
    ]
}

fn value(kind: Kind) -> BoxedStrategy<V> {
    let p10 = |w: u32| 10i64.pow(w);
    match kind {
        Kind::Str => text(false).prop_map(V::S).boxed(),
        Kind::Path => text(true).prop_map(V::S).boxed(),
        Kind::Padded(w) => {
            let max = p10(w) as u64 - 1;
            prop_oneof![Just(0u64), Just(max), 0..=max]
                .prop_map(V::U)
                .boxed()
        }
        Kind::Signed(w) => {
            let max = p10(w) - 1;
            prop_oneof![Just(-max), Just(max), Just(0), -max..=max]
                .prop_map(V::I)
                .boxed()
        }
        Kind::Dec(w, p) => {
            let max = p10(w + p) - 1;
            prop_oneof![Just(-max), Just(max), -max..=max]
                .prop_map(move |m| V::D(Decimal::new(m, p)))
                .boxed()
        }
        Kind::Rev => prop_oneof![
            Just(0i64),
            Just(9_999_999_999_999),
            0i64..=9_999_999_999_999
        ]
        .prop_map(V::R)
        .boxed(),
        Kind::Uuid => prop_oneof![
            Just(Uuid::nil()),
            Just(Uuid::max()),
            any::<u128>().prop_map(Uuid::from_u128)
        ]
        .prop_map(V::Id)
        .boxed(),
        // 0000-01-01 to 9999-12-31.
        Kind::Date => (1_721_060i32..=5_373_484)
            .prop_map(|d| V::Day(Date::from_julian_day(d).unwrap()))
            .boxed(),
        Kind::Instant => (0i128..253_402_300_799_000_000_000)
            .prop_map(|ns| V::At(OffsetDateTime::from_unix_timestamp_nanos(ns).unwrap()))
            .boxed(),
        Kind::Bool => any::<bool>().prop_map(V::B).boxed(),
    }
}

/// The literal after a field: a delimiter (`.`, `:`, `|` only after a
/// fixed-width field) and maybe a tag.
fn lit(after: Kind) -> impl Strategy<Value = String> {
    let delims: &'static [char] = if after.varies() {
        &['#', '-', '.']
    } else {
        &['#', '-', '.', '|', ':']
    };
    (
        prop::sample::select(delims),
        prop::sample::select(&["", "X", "EMP"][..]),
    )
        .prop_map(|(d, tag)| {
            if tag.is_empty() {
                d.to_string()
            } else {
                format!("{d}{tag}{d}")
            }
        })
}

fn template() -> impl Strategy<Value = Tpl> {
    (2usize..=4)
        .prop_flat_map(|n| {
            let kinds: Vec<BoxedStrategy<Kind>> =
                (0..n).map(|i| kind(i + 1 == n).boxed()).collect();
            (
                prop::sample::select(&["", "T#", "SITE#", "a", "Ω#", "P."][..]),
                kinds,
                any::<bool>(),
            )
        })
        .prop_flat_map(|(prefix, kinds, trailing)| {
            let lits: Vec<BoxedStrategy<String>> = kinds.iter().map(|k| lit(*k).boxed()).collect();
            let last = *kinds.last().unwrap();
            let trailing = if trailing && last != Kind::Path {
                lit(last).prop_map(Some).boxed()
            } else {
                Just(None).boxed()
            };
            (Just(prefix), Just(kinds), lits, trailing)
        })
        .prop_map(|(prefix, kinds, lits, trailing)| Tpl::new(prefix, kinds, lits, trailing))
}

fn row(t: &Tpl) -> impl Strategy<Value = Vec<V>> {
    t.kinds.iter().map(|k| value(*k)).collect::<Vec<_>>()
}

/// A template and rows of it, often sharing leading fields so that later
/// fields decide.
fn table() -> impl Strategy<Value = (Tpl, Vec<Vec<V>>)> {
    template().prop_flat_map(|t| {
        let rows = prop::collection::vec(row(&t), 1..24);
        let mixes = prop::collection::vec((any::<prop::sample::Index>(), 0usize..4), 0..24);
        (Just(t), rows, mixes).prop_map(|(t, mut rows, mixes)| {
            // Copy a leading run of one row into another.
            for (i, (src, keep)) in mixes.into_iter().enumerate() {
                let n = rows.len();
                let s = rows[src.index(n)].clone();
                let d = &mut rows[i % n];
                let k = keep.min(s.len());
                d[..k].clone_from_slice(&s[..k]);
            }
            (t, rows)
        })
    })
}

#[derive(Debug, Clone)]
enum Q {
    Lt(V),
    Le(V),
    Gt(V),
    Ge(V),
    Between(V, V),
    BeginsWith,
    StartsWith(String),
}

impl Q {
    fn holds(&self, v: &V) -> bool {
        match self {
            Q::Lt(x) => v.cmp(x) == Ordering::Less,
            Q::Le(x) => v.cmp(x) != Ordering::Greater,
            Q::Gt(x) => v.cmp(x) == Ordering::Greater,
            Q::Ge(x) => v.cmp(x) != Ordering::Less,
            Q::Between(lo, hi) => v.cmp(lo) != Ordering::Less && v.cmp(hi) != Ordering::Greater,
            Q::BeginsWith => true,
            Q::StartsWith(p) => matches!(v, V::S(s) if s.starts_with(p.as_str())),
        }
    }

    fn op(&self, w: KeyWriter) -> Result<SortKeyOp, KeyFormatError> {
        match self {
            Q::Lt(x) => w.lt(|w| x.write(w)),
            Q::Le(x) => w.le(|w| x.write(w)),
            Q::Gt(x) => w.gt(|w| x.write(w)),
            Q::Ge(x) => w.ge(|w| x.write(w)),
            Q::Between(lo, hi) => w.between(|w| lo.write(w), |w| hi.write(w)),
            Q::BeginsWith => w.begins_with(),
            Q::StartsWith(p) => w.starts_with(p),
        }
    }
}

/// A condition on the field at `depth` of a row, the fields before it
/// fixed to those of a stored row.
fn query(t: &Tpl, depth: usize) -> BoxedStrategy<Q> {
    if depth == t.kinds.len() {
        return Just(Q::BeginsWith).boxed();
    }
    let k = t.kinds[depth];
    let v = || value(k);
    let mut options: Vec<BoxedStrategy<Q>> = vec![
        v().prop_map(Q::Lt).boxed(),
        v().prop_map(Q::Le).boxed(),
        v().prop_map(Q::Gt).boxed(),
        v().prop_map(Q::Ge).boxed(),
        (v(), v()).prop_map(|(a, b)| Q::Between(a, b)).boxed(),
        Just(Q::BeginsWith).boxed(),
    ];
    if matches!(k, Kind::Str | Kind::Path) {
        options.push(
            prop_oneof![Just(String::new()), text(k == Kind::Path)]
                .prop_map(Q::StartsWith)
                .boxed(),
        );
    }
    prop::strategy::Union::new(options).boxed()
}

/// What DynamoDB selects for one key condition on the sort key (byte
/// order of UTF-8, which is `str`'s order).
fn selects(op: &SortKeyOp, k: &str) -> bool {
    match op {
        SortKeyOp::Eq(v) => k == v,
        SortKeyOp::Lt(v) => k < v.as_str(),
        SortKeyOp::Le(v) => k <= v.as_str(),
        SortKeyOp::Gt(v) => k > v.as_str(),
        SortKeyOp::Ge(v) => k >= v.as_str(),
        SortKeyOp::Between(a, b) => a.as_str() <= k && k <= b.as_str(),
        SortKeyOp::BeginsWith(p) => k.starts_with(p.as_str()),
        SortKeyOp::All => true,
        SortKeyOp::Empty => false,
        other => panic!("unknown op {other:?}"),
    }
}

/// A template, its stored rows, and queries (depth, row, operator).
type Case = (Tpl, Vec<Vec<V>>, Vec<(usize, usize, Q)>);

/// Conditions at random depths, the fixed fields taken from stored rows.
fn case() -> impl Strategy<Value = Case> {
    table().prop_flat_map(|(t, rows)| {
        let n = t.kinds.len();
        let qs = prop::collection::vec(
            (0..=n, any::<prop::sample::Index>()).prop_flat_map({
                let t = t.clone();
                let len = rows.len();
                move |(depth, pick)| (Just(depth), Just(pick.index(len)), query(&t, depth))
            }),
            1..8,
        );
        (Just(t), Just(rows), qs)
    })
}

/// The rows (by key) a condition selects, by the model and by the text.
fn both(
    t: &Tpl,
    rows: &[Vec<V>],
    depth: usize,
    fixed: &[V],
    q: &Q,
) -> (BTreeSet<String>, BTreeSet<String>, SortKeyOp) {
    let op = q
        .op(t.at(fixed, depth))
        .expect("a condition on stored values builds");
    let mut model = BTreeSet::new();
    let mut text = BTreeSet::new();
    for r in rows {
        let key = t.write(r).unwrap();
        let same = r[..depth]
            .iter()
            .zip(&fixed[..depth])
            .all(|(a, b)| a.cmp(b) == Ordering::Equal);
        if same && (depth == r.len() || q.holds(&r[depth])) {
            model.insert(key.clone());
        }
        if selects(&op, &key) {
            text.insert(key);
        }
    }
    (model, text, op)
}

// ---------------------------------------------------------------- properties

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Key order is the order of the fields' values (`rev` newest first).
    #[test]
    fn keys_sort_as_their_values((t, rows) in table()) {
        let keys: Vec<String> = rows.iter().map(|r| t.write(r).unwrap()).collect();
        for (a, ka) in rows.iter().zip(&keys) {
            for (b, kb) in rows.iter().zip(&keys) {
                let model = a.iter().zip(b).map(|(x, y)| x.key_cmp(y)).find(|o| o.is_ne()).unwrap_or(Ordering::Equal);
                prop_assert_eq!(model, ka.cmp(kb), "{} vs {} ({})", ka, kb, t.t.text());
            }
        }
    }

    /// A key reads back into its fields.
    #[test]
    fn keys_read_back((t, rows) in table()) {
        for r in &rows {
            let key = t.write(r).unwrap();
            let back = t.read(&key).unwrap();
            prop_assert!(back.iter().zip(r).all(|(a, b)| a.cmp(b) == Ordering::Equal), "{} -> {:?}", key, back);
        }
    }

    /// Reading arbitrary text never panics, and what reads back writes back
    /// to the same text: one key, one reading.
    #[test]
    fn reading_any_text_round_trips(t in template(), junk in prop::collection::vec(text(false), 0..4), keys in prop::collection::vec(any::<String>(), 0..4)) {
        let mut candidates: Vec<String> = keys;
        // Near misses: a real prefix with junk after it.
        candidates.extend(junk.iter().map(|j| format!("{}{j}", t.t.prefix())));
        for c in candidates {
            if let Ok(fields) = t.read(&c) {
                prop_assert_eq!(t.write(&fields).unwrap(), c);
            }
        }
    }

    /// Every condition over every leading run selects exactly the rows the
    /// model selects, and never a foreign key outside the prefix.
    #[test]
    fn conditions_select_exactly_the_model((t, rows, qs) in case(),
                                            foreign in prop::collection::vec(text(false), 0..6)) {
        for (depth, pick, q) in &qs {
            let (model, text, op) = both(&t, &rows, *depth, &rows[*pick], q);
            prop_assert_eq!(&model, &text, "{} depth {} {:?} -> {:?}", t.t.text(), depth, q, op);
            if let SortKeyOp::Between(lo, hi) = &op {
                prop_assert!(lo <= hi, "DynamoDB refuses BETWEEN with lo > hi: {:?}", op);
            }
            let prefix = t.t.prefix();
            if !prefix.is_empty() {
                for f in foreign.iter().filter(|f| !f.starts_with(prefix)) {
                    prop_assert!(!selects(&op, f), "{:?} selects foreign {:?}", op, f);
                }
            }
        }
    }
}

// ---------------------------------------------------------------- the engine

/// The sort-key condition as DynamoDB's key condition text and values.
fn key_condition(op: &SortKeyOp) -> Option<(String, Vec<String>)> {
    let one = |o: &str, v: &String| Some((format!("sk {o} :a"), vec![v.clone()]));
    match op {
        SortKeyOp::Eq(v) => one("=", v),
        SortKeyOp::Lt(v) => one("<", v),
        SortKeyOp::Le(v) => one("<=", v),
        SortKeyOp::Gt(v) => one(">", v),
        SortKeyOp::Ge(v) => one(">=", v),
        SortKeyOp::Between(a, b) => {
            Some(("sk BETWEEN :a AND :b".into(), vec![a.clone(), b.clone()]))
        }
        SortKeyOp::BeginsWith(p) => Some(("begins_with(sk, :a)".into(), vec![p.clone()])),
        _ => None,
    }
}

/// A sample of cases, stored in the engine: DynamoDB's comparisons select
/// what the model selects (so the byte-order model above is the engine's).
#[test]
fn the_engine_selects_what_the_model_selects() {
    use aws_sdk_dynamodb::types::{
        AttributeDefinition, AttributeValue, KeySchemaElement, KeyType, ScalarAttributeType,
    };
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{Config, RngSeed, TestRunner};

    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let local = dynakey_runtime::local::from_env().unwrap();
        let client = local.client().clone();
        let table = format!("cond_{}", Uuid::new_v4().simple());
        let attr = |n: &str| {
            AttributeDefinition::builder()
                .attribute_name(n)
                .attribute_type(ScalarAttributeType::S)
                .build()
                .unwrap()
        };
        let key = |n: &str, k| {
            KeySchemaElement::builder()
                .attribute_name(n)
                .key_type(k)
                .build()
                .unwrap()
        };
        client
            .create_table()
            .table_name(&table)
            .attribute_definitions(attr("pk"))
            .attribute_definitions(attr("sk"))
            .key_schema(key("pk", KeyType::Hash))
            .key_schema(key("sk", KeyType::Range))
            .billing_mode(aws_sdk_dynamodb::types::BillingMode::PayPerRequest)
            .send()
            .await
            .unwrap();
        let mut runner = TestRunner::new(Config {
            rng_seed: RngSeed::Fixed(0x5eed_c0de),
            ..Config::default()
        });
        let mut checked = 0;
        for case_no in 0..40 {
            let (t, rows, qs) = case().new_tree(&mut runner).unwrap().current();
            let pk = format!("case{case_no}");
            let keys: BTreeSet<String> = rows.iter().map(|r| t.write(r).unwrap()).collect();
            for k in &keys {
                client
                    .put_item()
                    .table_name(&table)
                    .item("pk", AttributeValue::S(pk.clone()))
                    .item("sk", AttributeValue::S(k.clone()))
                    .send()
                    .await
                    .unwrap();
            }
            for (depth, pick, q) in &qs {
                let (model, _, op) = both(&t, &rows, *depth, &rows[*pick], q);
                let mut req = client
                    .query()
                    .table_name(&table)
                    .expression_attribute_values(":p", AttributeValue::S(pk.clone()));
                let mut cond = "pk = :p".to_owned();
                match key_condition(&op) {
                    Some((text, values)) => {
                        cond.push_str(" AND ");
                        cond.push_str(&text);
                        for (name, v) in [":a", ":b"].iter().zip(values) {
                            req = req.expression_attribute_values(*name, AttributeValue::S(v));
                        }
                    }
                    None if op == SortKeyOp::Empty => {
                        assert!(model.is_empty(), "{q:?} selects {model:?} but builds Empty");
                        continue;
                    }
                    None => {}
                }
                let out = req.key_condition_expression(cond).send().await.unwrap();
                assert!(out.last_evaluated_key().is_none(), "one page");
                let got: BTreeSet<String> = out
                    .items()
                    .iter()
                    .map(|i| i["sk"].as_s().unwrap().clone())
                    .collect();
                assert_eq!(got, model, "{} depth {depth} {q:?} -> {op:?}", t.t.text());
                checked += 1;
            }
        }
        assert!(checked > 40, "{checked}");
    });
}

// ---------------------------------------------------------------- examples

fn str_tpl(text: &'static str, parts: &'static [TemplatePart]) -> &'static KeyTemplate {
    Box::leak(Box::new(KeyTemplate::new("SITE", text, parts)))
}

const CITY: TemplatePart = TemplatePart::Field {
    name: "city",
    format: PartFormat::Text,
};
const ZIP: TemplatePart = TemplatePart::Field {
    name: "zip",
    format: PartFormat::Text,
};

/// The soundness issue's reproduction: cities Ne, New, New York, Newark
/// under `CITY#<city>#<zip>`.
#[test]
fn a_space_below_the_delimiter_keeps_its_order() {
    let t = str_tpl(
        "CITY#<city>#<zip>",
        &[
            TemplatePart::Lit("CITY#"),
            CITY,
            TemplatePart::Lit("#"),
            ZIP,
        ],
    );
    let key = |c: &str| {
        let mut w = KeyWriter::new(t);
        w.write_str(c).unwrap();
        w.write_str("1").unwrap();
        w.finish().unwrap()
    };
    let cities = ["Ne", "New", "New York", "Newark"];
    let keys: Vec<String> = cities.iter().map(|c| key(c)).collect();
    assert_eq!(keys[2], "CITY#New%20York#1");
    let sel = |op: SortKeyOp| -> Vec<&str> {
        cities
            .iter()
            .zip(&keys)
            .filter(|(_, k)| selects(&op, k))
            .map(|(c, _)| *c)
            .collect()
    };
    let w = || KeyWriter::new(t);
    assert_eq!(
        sel(w().gt(|w| w.write_str("New")).unwrap()),
        ["New York", "Newark"]
    );
    assert_eq!(sel(w().le(|w| w.write_str("New")).unwrap()), ["Ne", "New"]);
    assert_eq!(
        sel(w()
            .between(|w| w.write_str("A"), |w| w.write_str("New"))
            .unwrap()),
        ["Ne", "New"]
    );
    assert_eq!(sel(w().lt(|w| w.write_str("New")).unwrap()), ["Ne"]);
    assert_eq!(
        sel(w().ge(|w| w.write_str("New")).unwrap()),
        ["New", "New York", "Newark"]
    );
    // Reversed bounds select nothing, without a request.
    assert_eq!(
        w().between(|w| w.write_str("z"), |w| w.write_str("a"))
            .unwrap(),
        SortKeyOp::Empty
    );
}

/// `-` as the delimiter: regions `a` and `a,`; `.` as the delimiter: `a-b`.
#[test]
fn other_delimiters_keep_their_order() {
    let t = str_tpl(
        "R-<region>-<zip>",
        &[TemplatePart::Lit("R-"), CITY, TemplatePart::Lit("-"), ZIP],
    );
    assert_eq!(t.escape(), '.');
    let key = |c: &str| {
        let mut w = KeyWriter::new(t);
        w.write_str(c).unwrap();
        w.write_str("z").unwrap();
        w.finish().unwrap()
    };
    assert!(key("a") < key("a,"));
    let le = KeyWriter::new(t).le(|w| w.write_str("a")).unwrap();
    assert!(selects(&le, &key("a")) && !selects(&le, &key("a,")));
    let gt = KeyWriter::new(t).gt(|w| w.write_str("a")).unwrap();
    assert!(selects(&gt, &key("a,")));

    let t = str_tpl(
        "P.<sku>.<zip>",
        &[TemplatePart::Lit("P."), CITY, TemplatePart::Lit("."), ZIP],
    );
    let mut w = KeyWriter::new(t);
    w.write_str("a-b").unwrap();
    w.write_str("z").unwrap();
    let k = w.finish().unwrap();
    let le = KeyWriter::new(t).le(|w| w.write_str("a")).unwrap();
    assert!(!selects(&le, &k), "{k} under {le:?}");
}

/// One stored key, one reading: a last field holding the delimiter cannot
/// write another template's key.
#[test]
fn a_last_field_cannot_forge_a_longer_key() {
    let file = str_tpl("DOC#<doc>", &[TemplatePart::Lit("DOC#"), CITY]);
    let version = str_tpl(
        "DOC#<doc>#<rev:d4>",
        &[
            TemplatePart::Lit("DOC#"),
            CITY,
            TemplatePart::Lit("#"),
            TemplatePart::Field {
                name: "rev",
                format: PartFormat::Padded(4),
            },
        ],
    );
    let mut w = KeyWriter::new(file);
    w.write_str("report#0001").unwrap();
    let forged = w.finish().unwrap();
    let mut w = KeyWriter::new(version);
    w.write_str("report").unwrap();
    w.write(form::padded(), &1u32).unwrap();
    assert_ne!(forged, w.finish().unwrap());
    assert_eq!(forged, "DOC#report%230001");
}

#[test]
fn refusals_name_the_field() {
    let t = str_tpl(
        "CITY#<city>#<zip>",
        &[
            TemplatePart::Lit("CITY#"),
            CITY,
            TemplatePart::Lit("#"),
            ZIP,
        ],
    );
    let mut w = KeyWriter::new(t);
    let err = w.write_str("").unwrap_err();
    assert_eq!((err.field, err.reason), ("city", KeyFormatReason::Empty));
    let err = w.write_str("a\u{10FFFF}").unwrap_err();
    assert_eq!(
        err.reason,
        KeyFormatReason::ForbiddenChar {
            found: '\u{10FFFF}'
        }
    );
    assert!(err.to_string().contains("city"), "{err}");
    // Escaped text holds control characters; raw text (a bare key, a
    // `path`) refuses them.
    w.write_str("tab\there").unwrap();
    let bare = str_tpl("<city>", &[CITY]);
    for (s, found) in [("a\0b", '\0'), ("line\nbreak", '\n'), ("\u{1f}", '\u{1f}')] {
        let err = KeyWriter::new(bare).write_str(s).unwrap_err();
        assert_eq!(
            err.reason,
            KeyFormatReason::ForbiddenChar { found },
            "{s:?}"
        );
    }
    let mut w = KeyWriter::new(bare);
    w.write_str("New York#1").unwrap();
    assert_eq!(w.finish().unwrap(), "New York#1", "a bare key is the value");
}
