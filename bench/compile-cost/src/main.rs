//! Compile-cost benchmark of `#[derive(DynamoEntity)]` (issue 10).
//!
//! ```sh
//! scripts/compile-cost --sizes 3 --reps 1       # smoke test (minutes, mostly dependencies)
//! scripts/compile-cost                          # N = 10, 50, 200 + the 14-input entity
//! scripts/compile-cost --scratch --reps 5 --macro-stats \
//!     --results bench/compile-cost/RESULTS.md   # the committed run (about an hour on 2 cores)
//! scripts/compile-cost --report-only bench/compile-cost/RESULTS.tsv   # report again, measure nothing
//! ```
//!
//! What it does:
//!
//! 1. Generates, under `target/compile-cost/ws` (a throwaway workspace whose
//!    `Cargo.lock` is copied from the repository's, so every dependency has
//!    the repository's version), one library crate per kind and size:
//!    - `dk_<N>`: N typical entities with `#[derive(DynamoEntity)]` (pk, sk,
//!      two GSIs, one sparse, ten fields: `String`, `Uuid`, `bool`,
//!      `time::Date`, `u32` as `d8`, `i64` as `n12`, `Option<String>`,
//!      `Vec<String>`), each with one `async` use site calling `key`,
//!      `to_item`, `from_item`, a GSI sort-key condition in a query, a typed
//!      update of five fields (GSI key rewrites included) and a get;
//!    - `base_<N>`: the same structs with serde derives, hand-written
//!      `format!` keys for the same templates, the codec through
//!      `serde_dynamo` and the same use sites on the raw SDK client;
//!    - `dk_wide`: one entity whose GSI sort key has 14 inputs, with a typed
//!      update setting all 14 (the DYNA226 fold at its widest), and `dk_1`
//!      (one typical entity) to compare it with.
//!
//!    `dynakey` is a path dependency on this repository's crate with
//!    `default-features = false` (no SQLite); `aws-sdk-dynamodb` has no TLS,
//!    as in the workspace. The dev profile is cargo's default (what a user
//!    crate gets). All crates share `target/compile-cost/target`; nothing
//!    touches the repository's own `target/debug`.
//! 2. Warms up: `cargo build -p C` and `cargo check -p C` for every crate
//!    (dependencies are compiled once per feature set and mode).
//! 3. For each crate and mode (`check`, `build`): one untimed incremental run,
//!    then `--reps` timed runs, each after appending a comment to the crate's
//!    `lib.rs`. Recorded per run: the wall time of the `cargo` invocation
//!    (what a user waits for), the wall and CPU time and the peak RSS of the
//!    crate's own `rustc` (through a `RUSTC_WRAPPER` running
//!    `/usr/bin/time`, so it is the compiler's peak, not cargo's), and the
//!    cores other processes used meanwhile (`/proc/stat` minus cargo's own
//!    CPU time). Before each timed run it waits (up to `--idle-wait` seconds
//!    per run, `--idle-budget` in all) until other processes use fewer than
//!    `--idle-load` cores: on a shared 2-core machine load inflates wall
//!    times, so the report marks loaded measurements and computes ratios
//!    and growth on the compiler's CPU time, which load hardly changes. With
//!    `--scratch`, the same again non-incremental (`CARGO_INCREMENTAL=0`:
//!    the crate alone compiled from nothing).
//! 4. Writes every timed run to `target/compile-cost/samples.tsv`, prints the
//!    tables (medians; wall and CPU time, peak memory, ratios dynakey /
//!    baseline, growth 10 → 50 → 200 with the marginal cost per entity, the
//!    14-input entity) and writes them as Markdown to
//!    `target/compile-cost/report.md`; with `--results FILE.md`, also to
//!    `FILE.md` and the samples to `FILE.tsv`.
//! 5. With `--macro-stats`: `cargo +nightly rustc -p dk_50 --profile check
//!    -- -Zmacro-stats` (and the same for `base_50`) in a separate target
//!    dir, appended to the report: lines and bytes each derive expands to.
//!    Only this option uses nightly.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

type Res<T> = Result<T, String>;

const HELP: &str = "\
usage: dynakey-compile-cost --repo DIR [options]   (run it as scripts/compile-cost)

  --sizes 10,50,200   entity counts of the dk_/base_ crates
  --reps 3            timed runs per crate and mode (median reported)
  --no-wide           skip the 14-input entity (dk_wide) and its reference dk_1
  --scratch           also time non-incremental compiles of each crate (CARGO_INCREMENTAL=0)
  --idle-wait 120     before each timed run, wait up to this many seconds ...
  --idle-load 0.3     ... until other processes use fewer cores than this (0 = no wait)
  --idle-budget 1800  ... and at most this many seconds of waiting in all
  --out DIR           work dir (default REPO/target/compile-cost)
  --results FILE      also write the Markdown report to FILE, and the samples to FILE
                      with the extension .tsv (e.g. bench/compile-cost/RESULTS.md)
  --report-only TSV   measure nothing: rebuild the report from a samples file
                      (target/compile-cost/samples.tsv, or a committed RESULTS.tsv)
  --macro-stats       also run `cargo +nightly rustc -- -Zmacro-stats` on the dk crate of
                      size 50 (or the middle size); needs the nightly toolchain
  --generate-only     write the crates and stop
";

#[derive(Clone)]
struct Opts {
    repo: PathBuf,
    out: PathBuf,
    sizes: Vec<usize>,
    reps: usize,
    wide: bool,
    scratch: bool,
    idle_wait: u64,
    idle_load: f64,
    idle_budget: f64,
    results: Option<PathBuf>,
    macro_stats: bool,
    generate_only: bool,
    report_only: Option<PathBuf>,
}

fn parse_opts() -> Res<Opts> {
    let mut repo = None;
    let mut out = None;
    let mut o = Opts {
        repo: PathBuf::new(),
        out: PathBuf::new(),
        sizes: vec![10, 50, 200],
        reps: 3,
        wide: true,
        scratch: false,
        idle_wait: 120,
        idle_load: 0.3,
        idle_budget: 1800.0,
        results: None,
        macro_stats: false,
        generate_only: false,
        report_only: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut val = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match a.as_str() {
            "--repo" => repo = Some(PathBuf::from(val("--repo")?)),
            "--out" => out = Some(PathBuf::from(val("--out")?)),
            "--sizes" => {
                o.sizes = val("--sizes")?
                    .split(',')
                    .map(|s| {
                        s.trim()
                            .parse::<usize>()
                            .map_err(|e| format!("--sizes: {e}"))
                    })
                    .collect::<Res<Vec<_>>>()?;
                if o.sizes.contains(&0) {
                    return Err("--sizes: sizes must be positive".into());
                }
            }
            "--reps" => {
                o.reps = val("--reps")?.parse().map_err(|e| format!("--reps: {e}"))?;
                if o.reps == 0 {
                    return Err("--reps must be at least 1".into());
                }
            }
            "--no-wide" => o.wide = false,
            "--scratch" => o.scratch = true,
            "--idle-wait" => {
                o.idle_wait = val("--idle-wait")?
                    .parse()
                    .map_err(|e| format!("--idle-wait: {e}"))?
            }
            "--idle-budget" => {
                o.idle_budget = val("--idle-budget")?
                    .parse()
                    .map_err(|e| format!("--idle-budget: {e}"))?
            }
            "--idle-load" => {
                o.idle_load = val("--idle-load")?
                    .parse()
                    .map_err(|e| format!("--idle-load: {e}"))?
            }
            "--results" => o.results = Some(PathBuf::from(val("--results")?)),
            "--macro-stats" => o.macro_stats = true,
            "--generate-only" => o.generate_only = true,
            "--report-only" => o.report_only = Some(PathBuf::from(val("--report-only")?)),
            "-h" | "--help" => {
                print!("{HELP}");
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument {other:?}\n{HELP}")),
        }
    }
    o.repo = repo.ok_or("--repo DIR is required (run scripts/compile-cost)")?;
    o.repo = fs::canonicalize(&o.repo).map_err(|e| format!("{}: {e}", o.repo.display()))?;
    o.out = out.unwrap_or_else(|| o.repo.join("target/compile-cost"));
    o.sizes.sort_unstable();
    o.sizes.dedup();
    let cwd = std::env::current_dir().map_err(|e| e.to_string())?;
    for p in [&mut o.results, &mut o.report_only].into_iter().flatten() {
        if p.is_relative() {
            *p = cwd.join(&*p);
        }
    }
    Ok(o)
}

// ---------------------------------------------------------------------------
// Generated crates
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Kind {
    Dynakey,
    Baseline,
    Wide,
}

#[derive(Clone, Debug)]
struct Crate {
    name: String,
    kind: Kind,
    n: usize,
}

impl Crate {
    fn dk(n: usize) -> Self {
        Crate {
            name: format!("dk_{n}"),
            kind: Kind::Dynakey,
            n,
        }
    }
    fn base(n: usize) -> Self {
        Crate {
            name: format!("base_{n}"),
            kind: Kind::Baseline,
            n,
        }
    }
    fn wide() -> Self {
        Crate {
            name: "dk_wide".into(),
            kind: Kind::Wide,
            n: 1,
        }
    }
}

fn crates(o: &Opts) -> Vec<Crate> {
    let mut v = Vec::new();
    for &n in &o.sizes {
        v.push(Crate::dk(n));
        v.push(Crate::base(n));
    }
    if o.wide {
        v.push(Crate::wide());
        if !o.sizes.contains(&1) {
            v.push(Crate::dk(1));
        }
    }
    v
}

/// The repository's dependency requirements (root `Cargo.toml`,
/// `[workspace.dependencies]`); the copied `Cargo.lock` pins the versions.
const DEPS_UUID: &str = r#"uuid = { version = "1", features = ["v7", "v4"] }"#;
const DEPS_TIME: &str = r#"time = { version = "0.3", features = ["macros", "parsing"] }"#;
const DEPS_AWS: &str = r#"aws-sdk-dynamodb = { version = "1", default-features = false, features = ["rt-tokio", "behavior-version-latest"] }"#;

fn manifest(c: &Crate, repo: &Path) -> String {
    let mut s = format!(
        "[package]\nname = \"{}\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n[lib]\npath = \"src/lib.rs\"\n\n[dependencies]\n",
        c.name
    );
    match c.kind {
        Kind::Dynakey | Kind::Wide => {
            let _ = writeln!(
                s,
                "dynakey = {{ path = {:?}, default-features = false }}",
                repo.join("dynakey").display().to_string()
            );
            let _ = writeln!(s, "{DEPS_UUID}\n{DEPS_TIME}");
        }
        Kind::Baseline => {
            // serde for uuid and time: Uuid as hyphenated text, Date as
            // YYYY-MM-DD (human-readable serializers), as dynakey stores them.
            let _ = writeln!(
                s,
                "serde = {{ version = \"1\", features = [\"derive\"] }}\n\
                 serde_dynamo = {{ version = \"4\", features = [\"aws-sdk-dynamodb+1\"] }}\n\
                 {DEPS_AWS}\n\
                 uuid = {{ version = \"1\", features = [\"v7\", \"v4\", \"serde\"] }}\n\
                 time = {{ version = \"0.3\", features = [\"macros\", \"parsing\", \"serde-human-readable\"] }}"
            );
        }
    }
    s
}

const DK_HEADER: &str = "\
//! Generated by scripts/compile-cost: @N@ typical dynakey entities and their use sites.
#![allow(clippy::all)]
use dynakey::{Db, DynamoEntity, Entity, Error};
use time::{macros::date, Date};
use uuid::Uuid;
";

const DK_ENTITY: &str = r##"
/// Entity @I@: pk, sk, two GSIs (GSI2 sparse), ten fields.
#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(entity = "ENT@I@")]
#[pk("TENANT#<tenant>")]
#[sk("ENT@I@#<id>")]
#[gsi("GSI1", pk = "REGION#<region>", sk = "ENT@I@#<active>#<created>#<seq:d8>")]
#[gsi("GSI2", pk = "OWNER#<owner>", sk = "ENT@I@#<balance:n12>", sparse)]
pub struct Ent@I@ {
    pub tenant: String,
    pub id: Uuid,
    pub region: String,
    pub active: bool,
    pub created: Date,
    pub seq: u32,
    pub owner: Option<String>,
    pub balance: i64,
    pub tags: Vec<String>,
    pub title: String,
}

pub async fn use_ent@I@(db: &Db) -> Result<usize, Error> {
    let id = Uuid::from_u128(@I@);
    let created = date!(2024 - 05 - 01);
    let e = Ent@I@ {
        tenant: "acme".to_owned(),
        id,
        region: "eu-west".to_owned(),
        active: true,
        created,
        seq: @I@,
        owner: Some("ann".to_owned()),
        balance: -@I@,
        tags: vec!["a".to_owned(), "b".to_owned()],
        title: "entity @I@".to_owned(),
    };
    let key = Ent@I@::key("acme", id)?;
    let item = e.to_item()?;
    let back = Ent@I@::from_item(&item)?;
    let cond = Ent@I@::gsi1_sk().active(true).created(created).begins_with()?;
    let found = db.query(Ent@I@::gsi1_pk("eu-west")?).sk(cond).all().await?;
    db.update(
        Ent@I@::update("acme", id)
            .set_title("renamed")
            .set_owner("bob")
            .set_active(false)
            .set_created(created)
            .set_seq(@I@ + 1),
    )
    .await?;
    let got = db.get(key).await?;
    Ok(found.len() + usize::from(got == Some(back)))
}
"##;

const BASE_HEADER: &str = r##"//! Generated by scripts/compile-cost: @N@ serde + serde_dynamo entities with
//! hand-written keys, and the same use sites on the raw SDK client.
#![allow(clippy::all)]
use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use serde::{Deserialize, Serialize};
use time::{macros::date, Date};
use uuid::Uuid;

pub type Item = HashMap<String, AttributeValue>;
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;
pub const TABLE: &str = "app";

fn s(v: String) -> AttributeValue {
    AttributeValue::S(v)
}

/// Signed, fixed width, text order = value order: "0" + digits, or "-" +
/// the complement (dynakey's `n12`).
pub fn signed12(v: i64) -> String {
    if v >= 0 {
        format!("0{v:012}")
    } else {
        format!("-{:012}", 1_000_000_000_000i64 + v)
    }
}
"##;

const BASE_ENTITY: &str = r##"
/// Entity @I@: the same fields; keys by hand.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Ent@I@ {
    pub tenant: String,
    pub id: Uuid,
    pub region: String,
    pub active: bool,
    pub created: Date,
    pub seq: u32,
    pub owner: Option<String>,
    pub balance: i64,
    pub tags: Vec<String>,
    pub title: String,
}

impl Ent@I@ {
    pub const TYPE: &'static str = "ENT@I@";
    pub fn pk(tenant: &str) -> String {
        format!("TENANT#{tenant}")
    }
    pub fn sk(id: Uuid) -> String {
        format!("ENT@I@#{id}")
    }
    pub fn gsi1_pk(region: &str) -> String {
        format!("REGION#{region}")
    }
    pub fn gsi1_sk(active: bool, created: Date, seq: u32) -> String {
        format!("ENT@I@#{active}#{created}#{seq:08}")
    }
    pub fn gsi1_sk_prefix(active: bool, created: Date) -> String {
        format!("ENT@I@#{active}#{created}#")
    }
    pub fn gsi2_pk(owner: &str) -> String {
        format!("OWNER#{owner}")
    }
    pub fn gsi2_sk(balance: i64) -> String {
        format!("ENT@I@#{}", signed12(balance))
    }
    pub fn key(tenant: &str, id: Uuid) -> Item {
        HashMap::from([
            ("pk".to_owned(), s(Self::pk(tenant))),
            ("sk".to_owned(), s(Self::sk(id))),
        ])
    }
    pub fn to_item(&self) -> Result<Item, serde_dynamo::Error> {
        let mut item: Item = serde_dynamo::to_item(self)?;
        item.insert("_type".to_owned(), s(Self::TYPE.to_owned()));
        item.extend(Self::key(&self.tenant, self.id));
        item.insert("gsi1pk".to_owned(), s(Self::gsi1_pk(&self.region)));
        item.insert("gsi1sk".to_owned(), s(Self::gsi1_sk(self.active, self.created, self.seq)));
        if let Some(owner) = &self.owner {
            item.insert("gsi2pk".to_owned(), s(Self::gsi2_pk(owner)));
            item.insert("gsi2sk".to_owned(), s(Self::gsi2_sk(self.balance)));
        }
        Ok(item)
    }
    pub fn from_item(item: Item) -> Result<Self, serde_dynamo::Error> {
        serde_dynamo::from_item(item)
    }
}

pub async fn use_ent@I@(client: &Client) -> Result<usize, BoxError> {
    let id = Uuid::from_u128(@I@);
    let created = date!(2024 - 05 - 01);
    let e = Ent@I@ {
        tenant: "acme".to_owned(),
        id,
        region: "eu-west".to_owned(),
        active: true,
        created,
        seq: @I@,
        owner: Some("ann".to_owned()),
        balance: -@I@,
        tags: vec!["a".to_owned(), "b".to_owned()],
        title: "entity @I@".to_owned(),
    };
    let key = Ent@I@::key("acme", id);
    let item = e.to_item()?;
    let back = Ent@I@::from_item(item)?;
    let out = client
        .query()
        .table_name(TABLE)
        .index_name("GSI1")
        .key_condition_expression("#pk = :pk AND begins_with(#sk, :sk)")
        .expression_attribute_names("#pk", "gsi1pk")
        .expression_attribute_names("#sk", "gsi1sk")
        .expression_attribute_values(":pk", s(Ent@I@::gsi1_pk("eu-west")))
        .expression_attribute_values(":sk", s(Ent@I@::gsi1_sk_prefix(true, created)))
        .send()
        .await?;
    let found: Vec<Ent@I@> = serde_dynamo::from_items(out.items.unwrap_or_default())?;
    client
        .update_item()
        .table_name(TABLE)
        .set_key(Some(key.clone()))
        .update_expression(
            "SET #title = :title, #owner = :owner, #active = :active, #created = :created, \
             #seq = :seq, #g1sk = :g1sk, #g2pk = :g2pk",
        )
        .condition_expression("attribute_exists(#pk)")
        .expression_attribute_names("#pk", "pk")
        .expression_attribute_names("#title", "title")
        .expression_attribute_names("#owner", "owner")
        .expression_attribute_names("#active", "active")
        .expression_attribute_names("#created", "created")
        .expression_attribute_names("#seq", "seq")
        .expression_attribute_names("#g1sk", "gsi1sk")
        .expression_attribute_names("#g2pk", "gsi2pk")
        .expression_attribute_values(":title", s("renamed".to_owned()))
        .expression_attribute_values(":owner", s("bob".to_owned()))
        .expression_attribute_values(":active", AttributeValue::Bool(false))
        .expression_attribute_values(":created", serde_dynamo::to_attribute_value(created)?)
        .expression_attribute_values(":seq", AttributeValue::N((@I@u32 + 1).to_string()))
        .expression_attribute_values(":g1sk", s(Ent@I@::gsi1_sk(false, created, @I@ + 1)))
        .expression_attribute_values(":g2pk", s(Ent@I@::gsi2_pk("bob")))
        .send()
        .await?;
    let got = client.get_item().table_name(TABLE).set_key(Some(key)).send().await?;
    let got: Option<Ent@I@> = got.item.map(serde_dynamo::from_item).transpose()?;
    Ok(found.len() + usize::from(got == Some(back)))
}
"##;

/// The wide entity's GSI sort-key inputs: String, `u32` as `d6`, `i64` as
/// `n8`, in turn.
const WIDE_INPUTS: usize = 14;

fn wide_field(k: usize) -> (&'static str, &'static str, String) {
    // (type, format, value expression)
    match k % 3 {
        1 => ("String", "", format!("\"v{k}\"")),
        2 => ("u32", ":d6", format!("{k}")),
        _ => ("i64", ":n8", format!("-{k}")),
    }
}

fn gen_wide() -> String {
    let mut s = String::from(
        "//! Generated by scripts/compile-cost: one entity whose GSI sort key has 14 inputs,\n\
         //! and a typed update setting all 14 (the DYNA226 fold at its widest).\n\
         #![allow(clippy::all)]\n\
         use dynakey::{Db, DynamoEntity, Entity, Error};\n\n",
    );
    let tpl: Vec<String> = (1..=WIDE_INPUTS)
        .map(|k| format!("<f{k}{}>", wide_field(k).1))
        .collect();
    let _ = writeln!(
        s,
        "#[derive(DynamoEntity, Debug, Clone, PartialEq)]\n\
         #[dynamo(entity = \"WIDE\")]\n\
         #[pk(\"WIDE#<id>\")]\n\
         #[sk(\"WIDE\")]\n\
         #[gsi(\"GSI1\", pk = \"TENANT#<tenant>\", sk = \"{}\")]\n\
         pub struct Wide {{\n    pub id: String,\n    pub tenant: String,",
        tpl.join("#")
    );
    for k in 1..=WIDE_INPUTS {
        let _ = writeln!(s, "    pub f{k}: {},", wide_field(k).0);
    }
    s.push_str("}\n\npub async fn use_wide(db: &Db) -> Result<usize, Error> {\n");
    s.push_str("    let e = Wide {\n        id: \"w1\".to_owned(),\n        tenant: \"acme\".to_owned(),\n");
    for k in 1..=WIDE_INPUTS {
        let (ty, _, v) = wide_field(k);
        let v = if ty == "String" {
            format!("{v}.to_owned()")
        } else {
            v
        };
        let _ = writeln!(s, "        f{k}: {v},");
    }
    s.push_str("    };\n");
    s.push_str("    let key = Wide::key(\"w1\")?;\n    let item = e.to_item()?;\n    let back = Wide::from_item(&item)?;\n");
    let _ = writeln!(
        s,
        "    let cond = Wide::gsi1_sk().f1({}).f2({}).f3({}).begins_with()?;",
        wide_field(1).2,
        wide_field(2).2,
        wide_field(3).2
    );
    s.push_str("    let found = db.query(Wide::gsi1_pk(\"acme\")?).sk(cond).all().await?;\n");
    s.push_str("    db.update(\n        Wide::update(\"w1\")\n");
    for k in 1..=WIDE_INPUTS {
        let _ = writeln!(s, "            .set_f{k}({})", wide_field(k).2);
    }
    s.push_str("    )\n    .await?;\n    let got = db.get(key).await?;\n");
    s.push_str("    Ok(found.len() + usize::from(got == Some(back)))\n}\n");
    s
}

fn gen_lib(c: &Crate) -> String {
    let (header, entity) = match c.kind {
        Kind::Dynakey => (DK_HEADER, DK_ENTITY),
        Kind::Baseline => (BASE_HEADER, BASE_ENTITY),
        Kind::Wide => return gen_wide(),
    };
    let mut s = header.replace("@N@", &c.n.to_string());
    for i in 1..=c.n {
        s.push_str(&entity.replace("@I@", &i.to_string()));
    }
    s
}

fn write_if_changed(path: &Path, text: &str) -> Res<()> {
    if fs::read_to_string(path).ok().as_deref() == Some(text) {
        return Ok(());
    }
    if let Some(d) = path.parent() {
        fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
    }
    fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

fn generate(o: &Opts, all: &[Crate]) -> Res<PathBuf> {
    let ws = o.out.join("ws");
    let members: Vec<String> = all.iter().map(|c| format!("{:?}", c.name)).collect();
    write_if_changed(
        &ws.join("Cargo.toml"),
        &format!(
            "# Generated by scripts/compile-cost; not part of the dynakey workspace.\n\
             [workspace]\nresolver = \"2\"\nmembers = [{}]\n",
            members.join(", ")
        ),
    )?;
    // The repository's lock: same dependency versions as the workspace.
    let lock = fs::read_to_string(o.repo.join("Cargo.lock"))
        .map_err(|e| format!("{}/Cargo.lock: {e}", o.repo.display()))?;
    write_if_changed(&ws.join("Cargo.lock"), &lock)?;
    // Crates of other sizes from earlier runs: not members any more.
    if let Ok(rd) = fs::read_dir(&ws) {
        for d in rd.flatten() {
            let name = d.file_name().to_string_lossy().to_string();
            let ours = name.starts_with("dk_") || name.starts_with("base_");
            if ours && d.path().is_dir() && !all.iter().any(|c| c.name == name) {
                let _ = fs::remove_dir_all(d.path());
            }
        }
    }
    for c in all {
        let dir = ws.join(&c.name);
        write_if_changed(&dir.join("Cargo.toml"), &manifest(c, &o.repo))?;
        write_if_changed(&dir.join("src/lib.rs"), &gen_lib(c))?;
    }
    // The wrapper cargo runs rustc through: /usr/bin/time for the crate
    // measured (its rustc's wall, CPU and peak RSS), plain exec otherwise.
    let wrap = o.out.join("rustc-wrap.sh");
    write_if_changed(
        &wrap,
        "#!/bin/sh\n\
         # RUSTC_WRAPPER of scripts/compile-cost: cargo calls it as `$0 rustc ARGS...`.\n\
         if [ -n \"$CC_CRATE\" ]; then\n\
         \x20 case \" $* \" in\n\
         \x20   *\" --crate-name $CC_CRATE \"*)\n\
         \x20     exec /usr/bin/time -f '%e %U %S %M' -o \"$CC_RECORD\" \"$@\" ;;\n\
         \x20 esac\n\
         fi\n\
         exec \"$@\"\n",
    )?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&wrap, fs::Permissions::from_mode(0o755)).map_err(|e| e.to_string())?;
    }
    Ok(ws)
}

/// Appends a comment to the crate's lib.rs: an edit that changes nothing.
fn touch(ws: &Path, c: &Crate, serial: &mut u64) -> Res<()> {
    *serial += 1;
    let p = ws.join(&c.name).join("src/lib.rs");
    let mut f = fs::OpenOptions::new()
        .append(true)
        .open(&p)
        .map_err(|e| format!("{}: {e}", p.display()))?;
    writeln!(f, "// touch {serial}").map_err(|e| e.to_string())
}

// ---------------------------------------------------------------------------
// Running cargo and measuring
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Mode {
    Check,
    Build,
}

impl Mode {
    fn cmd(self) -> &'static str {
        match self {
            Mode::Check => "check",
            Mode::Build => "build",
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Sample {
    /// Wall time of the `cargo` invocation.
    cargo_wall: f64,
    /// Wall time of the crate's rustc.
    rustc_wall: f64,
    /// User + system CPU time of the crate's rustc.
    rustc_cpu: f64,
    /// Peak RSS of the crate's rustc, MB.
    peak_mb: f64,
    /// Average cores used by other processes during the run.
    others: f64,
}

/// Busy CPU time of the whole machine, seconds (from /proc/stat).
fn busy_secs() -> f64 {
    let Ok(s) = fs::read_to_string("/proc/stat") else {
        return 0.0;
    };
    let Some(line) = s.lines().next() else {
        return 0.0;
    };
    let v: Vec<f64> = line
        .split_whitespace()
        .skip(1)
        .filter_map(|x| x.parse().ok())
        .collect();
    // user nice system idle iowait irq softirq steal
    let busy: f64 = v
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != 3 && *i != 4 && *i < 8)
        .map(|(_, x)| x)
        .sum();
    busy / 100.0 // USER_HZ
}

/// Cores used by other processes over `secs` while this tool is idle.
fn others_load(secs: f64) -> f64 {
    let b0 = busy_secs();
    std::thread::sleep(Duration::from_secs_f64(secs));
    (busy_secs() - b0) / secs
}

/// Waits until other processes use fewer than `o.idle_load` cores (at most
/// `o.idle_wait` seconds, and what is left of `budget`). Returns the seconds
/// waited.
fn wait_idle(o: &Opts, budget: &mut f64) -> f64 {
    if o.idle_load <= 0.0 || o.idle_wait == 0 || *budget <= 0.0 {
        return 0.0;
    }
    let waited = wait_idle_for(o, (o.idle_wait as f64).min(*budget));
    *budget -= waited;
    if *budget <= 0.0 {
        eprintln!(
            "   the --idle-budget of {:.0} s is spent: no more waiting",
            o.idle_budget
        );
    }
    waited
}

fn wait_idle_for(o: &Opts, max: f64) -> f64 {
    let t0 = Instant::now();
    let mut said = false;
    loop {
        let l = others_load(1.0);
        let waited = t0.elapsed().as_secs_f64();
        if l < o.idle_load {
            if said {
                eprintln!("   machine idle after {waited:.0} s");
            }
            return waited;
        }
        if waited >= max {
            eprintln!("   still {l:.2} cores busy after {waited:.0} s: measuring anyway (see the others column)");
            return waited;
        }
        if !said {
            eprintln!("   other processes use {l:.2} cores: waiting (up to {max:.0} s)");
            said = true;
        }
    }
}

struct Runner {
    ws: PathBuf,
    target: PathBuf,
    wrap: PathBuf,
    rec_dir: PathBuf,
    log: PathBuf,
}

fn parse_time_record(path: &Path) -> Res<(f64, f64, f64, f64)> {
    let t = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    // /usr/bin/time may prefix "Command exited with non-zero status N".
    let line = t.lines().last().unwrap_or("");
    let v: Vec<f64> = line
        .split_whitespace()
        .filter_map(|x| x.parse().ok())
        .collect();
    if v.len() != 4 {
        return Err(format!(
            "{}: unexpected /usr/bin/time output {t:?}",
            path.display()
        ));
    }
    Ok((v[0], v[1], v[2], v[3]))
}

impl Runner {
    /// Runs `cargo <args>` in the generated workspace; measures the rustc of
    /// `measure` if given.
    fn cargo(
        &self,
        args: &[&str],
        env: &[(&str, &str)],
        measure: Option<&str>,
    ) -> Res<Option<Sample>> {
        let cargo_rec = self.rec_dir.join("cargo.time");
        let rustc_rec = self.rec_dir.join("rustc.time");
        let _ = fs::remove_file(&cargo_rec);
        let _ = fs::remove_file(&rustc_rec);
        let log = fs::File::create(&self.log).map_err(|e| e.to_string())?;
        let mut cmd = Command::new("/usr/bin/time");
        cmd.args(["-f", "%e %U %S %M", "-o"])
            .arg(&cargo_rec)
            .arg("cargo")
            .args(args)
            .current_dir(&self.ws)
            .env("CARGO_TARGET_DIR", &self.target)
            .env("RUSTC_WRAPPER", &self.wrap)
            .env("CARGO_TERM_COLOR", "never")
            .env("CC_CRATE", measure.unwrap_or(""))
            .env("CC_RECORD", &rustc_rec)
            .stdin(Stdio::null())
            .stdout(log.try_clone().map_err(|e| e.to_string())?)
            .stderr(log);
        for (k, v) in env {
            cmd.env(k, v);
        }
        let b0 = busy_secs();
        let t0 = Instant::now();
        let status = cmd
            .status()
            .map_err(|e| format!("running /usr/bin/time cargo: {e}"))?;
        let wall = t0.elapsed().as_secs_f64();
        let busy = busy_secs() - b0;
        if !status.success() {
            let text = fs::read_to_string(&self.log).unwrap_or_default();
            let tail: Vec<&str> = text.lines().rev().take(60).collect();
            let tail: Vec<&str> = tail.into_iter().rev().collect();
            return Err(format!(
                "`cargo {}` failed in {}:\n{}",
                args.join(" "),
                self.ws.display(),
                tail.join("\n")
            ));
        }
        let Some(name) = measure else { return Ok(None) };
        if !rustc_rec.exists() {
            return Err(format!(
                "`cargo {}` did not run rustc for {name} (was the crate fresh?); log: {}",
                args.join(" "),
                self.log.display()
            ));
        }
        let (rw, ru, rs, rkb) = parse_time_record(&rustc_rec)?;
        let (_, cu, cs, _) = parse_time_record(&cargo_rec)?;
        let others = ((busy - (cu + cs)) / wall).max(0.0);
        Ok(Some(Sample {
            cargo_wall: wall,
            rustc_wall: rw,
            rustc_cpu: ru + rs,
            peak_mb: rkb / 1024.0,
            others,
        }))
    }
}

fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let n = v.len();
    if n == 0 {
        f64::NAN
    } else if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Inc {
    Incremental,
    Scratch,
}

#[derive(Clone, Debug)]
struct Stats {
    samples: Vec<Sample>,
}

impl Stats {
    fn med(&self, f: impl Fn(&Sample) -> f64) -> f64 {
        median(&self.samples.iter().map(f).collect::<Vec<_>>())
    }
    fn wall(&self) -> f64 {
        self.med(|s| s.cargo_wall)
    }
    fn min_wall(&self) -> f64 {
        self.samples
            .iter()
            .map(|s| s.cargo_wall)
            .fold(f64::INFINITY, f64::min)
    }
    fn max_wall(&self) -> f64 {
        self.samples
            .iter()
            .map(|s| s.cargo_wall)
            .fold(0.0, f64::max)
    }
    fn peak(&self) -> f64 {
        self.samples.iter().map(|s| s.peak_mb).fold(0.0, f64::max)
    }
    fn others(&self) -> f64 {
        self.samples.iter().map(|s| s.others).fold(0.0, f64::max)
    }
}

type Results = BTreeMap<(String, Mode, Inc), Stats>;

fn measure(o: &Opts, r: &Runner, all: &[Crate]) -> Res<Results> {
    let mut res = Results::new();
    let mut serial = 0u64;
    let mut budget = o.idle_budget;
    let incs: &[Inc] = if o.scratch {
        &[Inc::Incremental, Inc::Scratch]
    } else {
        &[Inc::Incremental]
    };
    for c in all {
        for mode in [Mode::Check, Mode::Build] {
            for &inc in incs {
                let env: &[(&str, &str)] = match inc {
                    Inc::Incremental => &[],
                    Inc::Scratch => &[("CARGO_INCREMENTAL", "0")],
                };
                let args = ["-q", mode.cmd(), "-p", c.name.as_str()];
                // Untimed: brings the incremental state (and cargo's
                // fingerprint after a CARGO_INCREMENTAL switch) up to date.
                touch(&r.ws, c, &mut serial)?;
                r.cargo(&args, env, Some(&c.name))?;
                let mut samples = Vec::new();
                for rep in 1..=o.reps {
                    touch(&r.ws, c, &mut serial)?;
                    wait_idle(o, &mut budget);
                    let s = r.cargo(&args, env, Some(&c.name))?.expect("measured");
                    eprintln!(
                        "  {:<8} {} {:<11} {}/{}: {:6.2} s  (rustc {:.2} s wall, {:.2} s cpu, {:.0} MB; others {:.2} cores)",
                        c.name,
                        mode.cmd(),
                        format!("{inc:?}").to_lowercase(),
                        rep,
                        o.reps,
                        s.cargo_wall,
                        s.rustc_wall,
                        s.rustc_cpu,
                        s.peak_mb,
                        s.others
                    );
                    samples.push(s);
                }
                res.insert((c.name.clone(), mode, inc), Stats { samples });
            }
        }
    }
    Ok(res)
}

// ---------------------------------------------------------------------------
// Samples file and report
// ---------------------------------------------------------------------------

fn sh(cmd: &str, args: &[&str], dir: &Path) -> String {
    Command::new(cmd)
        .args(args)
        .current_dir(dir)
        .stderr(Stdio::null())
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "?".into())
}

fn ratio(a: f64, b: f64) -> String {
    format!("{:.2}×", a / b)
}

/// What the report says about the run, captured when it starts.
#[derive(Clone, Debug, Default)]
struct RunInfo {
    started: String,
    minutes: f64,
    command: String,
    commit: String,
    branch: String,
    /// Uncommitted changes to the library crates.
    dirty: bool,
    rustc: String,
    cores: usize,
}

impl RunInfo {
    fn capture(o: &Opts) -> Self {
        let mut cmd: Vec<String> = Vec::new();
        let mut args = std::env::args().skip(1);
        while let Some(a) = args.next() {
            if a == "--repo" {
                args.next();
            } else {
                cmd.push(a);
            }
        }
        let lib = ["dynakey", "dynakey-derive", "dynakey-runtime"];
        let mut status = vec!["status", "--porcelain", "--"];
        status.extend(lib);
        let dirty = sh("git", &status, &o.repo);
        RunInfo {
            started: sh("date", &["-u", "+%Y-%m-%d %H:%M UTC"], &o.repo),
            minutes: 0.0,
            command: format!("scripts/compile-cost {}", cmd.join(" "))
                .trim()
                .to_string(),
            commit: sh("git", &["rev-parse", "--short", "HEAD"], &o.repo),
            branch: sh("git", &["rev-parse", "--abbrev-ref", "HEAD"], &o.repo),
            dirty: !(dirty.is_empty() || dirty == "?"),
            rustc: sh("rustc", &["--version"], &o.repo),
            cores: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(0),
        }
    }
}

const SAMPLE_COLUMNS: &str =
    "crate\tcommand\tincremental\tcargo_wall_s\trustc_wall_s\trustc_cpu_s\tpeak_mb\tothers_cores";

/// Every timed run as tab-separated values, the run's description in
/// `# key<TAB>value` lines first; `--report-only FILE` reads it back.
fn save_samples(path: &Path, info: &RunInfo, res: &Results) -> Res<()> {
    let mut t = String::new();
    for (k, v) in [
        ("started", info.started.clone()),
        ("minutes", format!("{:.1}", info.minutes)),
        ("command", info.command.clone()),
        ("commit", info.commit.clone()),
        ("branch", info.branch.clone()),
        ("dirty", info.dirty.to_string()),
        ("rustc", info.rustc.clone()),
        ("cores", info.cores.to_string()),
    ] {
        let _ = writeln!(t, "# {k}\t{v}");
    }
    let _ = writeln!(t, "{SAMPLE_COLUMNS}");
    for ((name, mode, inc), st) in res {
        for s in &st.samples {
            let _ = writeln!(
                t,
                "{name}\t{}\t{}\t{:.3}\t{:.3}\t{:.3}\t{:.1}\t{:.3}",
                mode.cmd(),
                *inc == Inc::Incremental,
                s.cargo_wall,
                s.rustc_wall,
                s.rustc_cpu,
                s.peak_mb,
                s.others
            );
        }
    }
    fs::write(path, t).map_err(|e| format!("{}: {e}", path.display()))
}

fn load_samples(path: &Path) -> Res<(RunInfo, Results)> {
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut info = RunInfo::default();
    let mut res = Results::new();
    for (i, line) in text.lines().enumerate() {
        let bad = |what: &str| format!("{}:{}: {what}: {line:?}", path.display(), i + 1);
        if let Some(kv) = line.strip_prefix("# ") {
            let (k, v) = kv
                .split_once('\t')
                .ok_or_else(|| bad("expected `# key<TAB>value`"))?;
            let v = v.to_string();
            match k {
                "started" => info.started = v,
                "minutes" => info.minutes = v.parse().map_err(|_| bad("minutes"))?,
                "command" => info.command = v,
                "commit" => info.commit = v,
                "branch" => info.branch = v,
                "dirty" => info.dirty = v == "true",
                "rustc" => info.rustc = v,
                "cores" => info.cores = v.parse().map_err(|_| bad("cores"))?,
                _ => {}
            }
            continue;
        }
        if line.trim().is_empty() || line == SAMPLE_COLUMNS {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() != 8 {
            return Err(bad("expected 8 columns"));
        }
        let mode = match f[1] {
            "check" => Mode::Check,
            "build" => Mode::Build,
            _ => return Err(bad("command")),
        };
        let inc = if f[2] == "true" {
            Inc::Incremental
        } else {
            Inc::Scratch
        };
        let num = |j: usize| f[j].parse::<f64>().map_err(|_| bad("number"));
        let s = Sample {
            cargo_wall: num(3)?,
            rustc_wall: num(4)?,
            rustc_cpu: num(5)?,
            peak_mb: num(6)?,
            others: num(7)?,
        };
        res.entry((f[0].to_string(), mode, inc))
            .or_insert_with(|| Stats {
                samples: Vec::new(),
            })
            .samples
            .push(s);
    }
    Ok((info, res))
}

/// Other load in at least half of a measurement's runs.
fn contended(s: &Stats, threshold: f64) -> bool {
    2 * s.samples.iter().filter(|x| x.others >= threshold).count() >= s.samples.len()
}

fn report(o: &Opts, res: &Results, info: &RunInfo, regenerated: bool) -> String {
    let mut md = String::new();
    let busy_at = o.idle_load.max(0.3);
    let reps = res.values().map(|s| s.samples.len()).max().unwrap_or(0);
    let _ = writeln!(md, "## Compile cost of `#[derive(DynamoEntity)]`\n");
    let _ = writeln!(
        md,
        "Run {} by `{}` on commit `{}` ({}{}), {}, {} cores; {:.0} min in all{}.\n",
        info.started,
        info.command,
        info.commit,
        info.branch,
        if info.dirty {
            ", with uncommitted changes to the library"
        } else {
            ""
        },
        info.rustc,
        info.cores,
        info.minutes,
        if regenerated {
            " (this report regenerated from its samples file)"
        } else {
            ""
        }
    );
    let _ = writeln!(
        md,
        "Each crate is a library of N entities with one use site each (key, to_item, from_item, \
         a GSI sort-key condition in a query, a typed update, a get). *dynakey*: \
         `#[derive(DynamoEntity)]` with pk, sk and two GSIs (one sparse) over ten fields. \
         *baseline*: the same structs with `serde` derives, `format!` keys and `serde_dynamo`, \
         the same use sites on the SDK client. Incremental: `cargo check` / `cargo build` after \
         appending a comment to the crate's `lib.rs` (an edit that changes nothing), \
         dependencies built, default dev profile. Median of {reps} runs. Peak: maximum RSS of \
         the crate's `rustc`.\n"
    );

    let timed: Vec<&Sample> = res.values().flat_map(|s| s.samples.iter()).collect();
    let busy = timed.iter().filter(|s| s.others >= busy_at).count();
    let worst = timed.iter().map(|s| s.others).fold(0.0, f64::max);
    let _ = writeln!(
        md,
        "The machine is shared: other processes used at least {busy_at:.1} cores during {busy} \
         of the {} timed runs (at most {worst:.2} of {} cores). Wall times marked † had such \
         load in most of their runs and are inflated; the CPU time of the crate's `rustc` is \
         hardly affected, so ratios and growth are given on CPU time.\n",
        timed.len(),
        info.cores
    );

    let get = |name: &str, mode: Mode, inc: Inc| res.get(&(name.to_string(), mode, inc));
    let wall = |s: &Stats| {
        format!(
            "{:.2} s{}",
            s.wall(),
            if contended(s, busy_at) { " †" } else { "" }
        )
    };
    let cpu = |s: &Stats| s.med(|x| x.rustc_cpu);
    let has_scratch = res.keys().any(|k| k.2 == Inc::Scratch);
    let has_wide = res.keys().any(|k| k.0 == "dk_wide");
    for inc in [Inc::Incremental, Inc::Scratch] {
        if inc == Inc::Scratch && !has_scratch {
            continue;
        }
        let _ = writeln!(
            md,
            "### {}\n",
            match inc {
                Inc::Incremental => "Incremental (after touching `lib.rs`)",
                Inc::Scratch =>
                    "Non-incremental (`CARGO_INCREMENTAL=0`: the crate alone compiled from nothing)",
            }
        );
        let rows: Vec<(usize, [&Stats; 4])> = o
            .sizes
            .iter()
            .filter_map(|&n| {
                Some((
                    n,
                    [
                        get(&format!("dk_{n}"), Mode::Check, inc)?,
                        get(&format!("base_{n}"), Mode::Check, inc)?,
                        get(&format!("dk_{n}"), Mode::Build, inc)?,
                        get(&format!("base_{n}"), Mode::Build, inc)?,
                    ],
                ))
            })
            .collect();
        let _ = writeln!(md, "Wall time of the `cargo` command and peak memory:\n");
        let _ = writeln!(
            md,
            "| entities | dynakey check | baseline check | dynakey build | baseline build | dynakey peak MB check / build | baseline peak MB check / build |"
        );
        let _ = writeln!(md, "|---:|---:|---:|---:|---:|---:|---:|");
        for (n, [dc, bc, db, bb]) in &rows {
            let _ = writeln!(
                md,
                "| {n} | {} | {} | {} | {} | {:.0} / {:.0} | {:.0} / {:.0} |",
                wall(dc),
                wall(bc),
                wall(db),
                wall(bb),
                dc.peak(),
                db.peak(),
                bc.peak(),
                bb.peak()
            );
        }
        let _ = writeln!(
            md,
            "\nCPU time (user + system) of the crate's `rustc`; ratio dynakey / baseline:\n"
        );
        let _ = writeln!(
            md,
            "| entities | dynakey check | baseline check | ratio | dynakey build | baseline build | ratio | peak ratio check / build |"
        );
        let _ = writeln!(md, "|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (n, [dc, bc, db, bb]) in &rows {
            let _ = writeln!(
                md,
                "| {n} | {:.2} s | {:.2} s | {} | {:.2} s | {:.2} s | {} | {} / {} |",
                cpu(dc),
                cpu(bc),
                ratio(cpu(dc), cpu(bc)),
                cpu(db),
                cpu(bb),
                ratio(cpu(db), cpu(bb)),
                ratio(dc.peak(), bc.peak()),
                ratio(db.peak(), bb.peak())
            );
        }
        let _ = writeln!(md);

        // Growth: factor between sizes and the marginal cost per entity.
        if rows.len() >= 2 {
            let mut head = String::from("| rustc CPU time | ");
            let mut rule = String::from("|---|");
            for w in rows.windows(2) {
                let (a, b) = (w[0].0, w[1].0);
                let _ = write!(
                    head,
                    "{a} → {b} (×{:.0} entities) | ms per entity | ",
                    b as f64 / a as f64
                );
                rule.push_str("---:|---:|");
            }
            let (lo, hi) = (rows[0].0, rows[rows.len() - 1].0);
            let _ = write!(head, "peak MB per entity, {lo} → {hi} |");
            rule.push_str("---:|");
            let _ = writeln!(
                md,
                "Growth: time factor per step and the marginal cost of one more entity (level ms per \
                 entity from step to step = linear):\n"
            );
            let _ = writeln!(md, "{head}\n{rule}");
            for (label, col) in [
                ("dynakey check", 0),
                ("baseline check", 1),
                ("dynakey build", 2),
                ("baseline build", 3),
            ] {
                let mut row = format!("| {label} | ");
                for w in rows.windows(2) {
                    let (x, y) = (w[0].1[col], w[1].1[col]);
                    let _ = write!(
                        row,
                        "×{:.2} | {:.0} | ",
                        cpu(y) / cpu(x),
                        1000.0 * (cpu(y) - cpu(x)) / (w[1].0 - w[0].0) as f64
                    );
                }
                let (x, y) = (rows[0].1[col], rows[rows.len() - 1].1[col]);
                let _ = writeln!(row, "{:.1} |", (y.peak() - x.peak()) / (hi - lo) as f64);
                md.push_str(&row);
            }
            let (n, [dc, bc, db, bb]) = rows[rows.len() - 1];
            let _ = writeln!(
                md,
                "\nAt N = {n}, dynakey over the baseline, per entity: `cargo check` {:+.0} ms CPU and \
                 {:+.1} MB peak; `cargo build` {:+.0} ms CPU and {:+.1} MB peak.\n",
                1000.0 * (cpu(dc) - cpu(bc)) / n as f64,
                (dc.peak() - bc.peak()) / n as f64,
                1000.0 * (cpu(db) - cpu(bb)) / n as f64,
                (db.peak() - bb.peak()) / n as f64
            );
        }

        if has_wide {
            let _ = writeln!(
                md,
                "The 14-input entity (wall time †-marked as above; CPU time of its `rustc`):\n"
            );
            let _ = writeln!(md, "| crate | what | check | check CPU | check peak MB | build | build CPU | build peak MB |");
            let _ = writeln!(md, "|---|---|---:|---:|---:|---:|---:|---:|");
            for (name, what) in [
                (
                    "dk_wide",
                    "one entity, GSI sort key of 14 inputs, typed update setting all 14",
                ),
                ("dk_1", "one typical entity (reference)"),
            ] {
                if let (Some(c), Some(b)) =
                    (get(name, Mode::Check, inc), get(name, Mode::Build, inc))
                {
                    let _ = writeln!(
                        md,
                        "| `{name}` | {what} | {} | {:.2} s | {:.0} | {} | {:.2} s | {:.0} |",
                        wall(c),
                        cpu(c),
                        c.peak(),
                        wall(b),
                        cpu(b),
                        b.peak()
                    );
                }
            }
            let _ = writeln!(md);
        }
    }

    // Every measurement.
    let _ = writeln!(
        md,
        "<details><summary>Every measurement</summary>\n\n\
         cargo: wall time of the cargo command (median, min–max); rustc: the crate's rustc, \
         median wall and CPU (user + system) time; others: cores used by other processes, \
         median and most, over the runs.\n"
    );
    let _ = writeln!(
        md,
        "| crate | command | cargo s (min–max) | rustc wall s | rustc CPU s | peak MB | others |"
    );
    let _ = writeln!(md, "|---|---|---:|---:|---:|---:|---:|");
    let mut names: Vec<&String> = Vec::new();
    for (n, _, _) in res.keys() {
        if !names.contains(&n) {
            names.push(n);
        }
    }
    names.sort_by_key(|n| crate_order(n));
    for name in names {
        for inc in [Inc::Incremental, Inc::Scratch] {
            for mode in [Mode::Check, Mode::Build] {
                if let Some(s) = get(name, mode, inc) {
                    let _ = writeln!(
                        md,
                        "| `{name}` | {}{} | {:.2} ({:.2}–{:.2}) | {:.2} | {:.2} | {:.0} | {:.2}, {:.2} |",
                        mode.cmd(),
                        if inc == Inc::Scratch { ", non-incremental" } else { "" },
                        s.wall(),
                        s.min_wall(),
                        s.max_wall(),
                        s.med(|x| x.rustc_wall),
                        s.med(|x| x.rustc_cpu),
                        s.peak(),
                        s.med(|x| x.others),
                        s.others()
                    );
                }
            }
        }
    }
    let _ = writeln!(md, "\n</details>\n");
    md
}

/// dk_10, base_10, dk_50, …, then dk_wide, dk_1.
fn crate_order(name: &str) -> (usize, usize, usize) {
    if name == "dk_wide" {
        return (1, 0, 0);
    }
    let (kind, n) = name.split_once('_').unwrap_or((name, "0"));
    let n: usize = n.parse().unwrap_or(0);
    if name == "dk_1" {
        return (2, 0, 0);
    }
    (0, n, usize::from(kind != "dk"))
}

// ---------------------------------------------------------------------------
// -Zmacro-stats (optional, nightly)
// ---------------------------------------------------------------------------

fn macro_stats(o: &Opts, r: &Runner) -> Res<String> {
    let n = if o.sizes.contains(&50) {
        50
    } else {
        o.sizes[o.sizes.len() / 2]
    };
    let mut md = format!(
        "### `-Zmacro-stats` at N = {n}\n\n\
         `cargo +nightly rustc -p <crate> --profile check -- -Zmacro-stats` (nightly, own target dir):\n"
    );
    for c in [Crate::dk(n), Crate::base(n)] {
        let mut serial = 1_000_000u64;
        touch(&r.ws, &c, &mut serial)?;
        eprintln!("== cargo +nightly rustc -p {} --profile check -- -Zmacro-stats (the first run builds the dependencies)", c.name);
        let out = Command::new("cargo")
            .args([
                "+nightly",
                "rustc",
                "-q",
                "-p",
                &c.name,
                "--profile",
                "check",
                "--",
                "-Zmacro-stats",
            ])
            .current_dir(&r.ws)
            .env("CARGO_TARGET_DIR", o.out.join("target-nightly"))
            .env("CARGO_TERM_COLOR", "never")
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("cargo +nightly: {e}"))?;
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        if !out.status.success() {
            return Err(format!("cargo +nightly rustc failed:\n{err}"));
        }
        let stats: Vec<&str> = err
            .lines()
            .filter(|l| l.starts_with("macro-stats"))
            .collect();
        if stats.is_empty() {
            return Err(format!("no macro-stats lines in the output:\n{err}"));
        }
        let _ = writeln!(md, "\n```text\n{}\n```", stats.join("\n"));
    }
    Ok(md)
}

// ---------------------------------------------------------------------------

fn write_outputs(o: &Opts, md: &str, samples: Option<(&RunInfo, &Results)>) -> Res<()> {
    println!("{md}");
    let path = o.out.join("report.md");
    fs::create_dir_all(&o.out).map_err(|e| format!("{}: {e}", o.out.display()))?;
    fs::write(&path, md).map_err(|e| format!("{}: {e}", path.display()))?;
    eprintln!("== report written to {}", path.display());
    if let Some(p) = &o.results {
        fs::write(p, md).map_err(|e| format!("{}: {e}", p.display()))?;
        eprintln!("== and to {}", p.display());
        if let Some((info, res)) = samples {
            let tsv = p.with_extension("tsv");
            save_samples(&tsv, info, res)?;
            eprintln!("== samples written to {}", tsv.display());
        }
    }
    Ok(())
}

fn runner(o: &Opts, ws: PathBuf) -> Res<Runner> {
    let rec_dir = o.out.join("records");
    fs::create_dir_all(&rec_dir).map_err(|e| e.to_string())?;
    Ok(Runner {
        ws,
        target: o.out.join("target"),
        wrap: o.out.join("rustc-wrap.sh"),
        log: rec_dir.join("cargo.log"),
        rec_dir,
    })
}

fn append_macro_stats(o: &Opts, md: &mut String) -> Res<()> {
    if o.macro_stats {
        let all = crates(o);
        let r = runner(o, generate(o, &all)?)?;
        match macro_stats(o, &r) {
            Ok(s) => md.push_str(&s),
            Err(e) => eprintln!("-Zmacro-stats skipped: {e}"),
        }
    }
    Ok(())
}

fn run() -> Res<()> {
    let mut o = parse_opts()?;

    if let Some(path) = o.report_only.clone() {
        // The sizes and crates are the samples file's.
        let (info, res) = load_samples(&path)?;
        let mut sizes: Vec<usize> = res
            .keys()
            .filter_map(|(n, _, _)| n.strip_prefix("base_")?.parse().ok())
            .collect();
        sizes.sort_unstable();
        sizes.dedup();
        o.sizes = sizes;
        o.wide = res.keys().any(|k| k.0 == "dk_wide");
        if o.sizes.is_empty() {
            return Err(format!("{}: no samples", path.display()));
        }
        let mut md = report(&o, &res, &info, true);
        append_macro_stats(&o, &mut md)?;
        return write_outputs(&o, &md, None);
    }

    let all = crates(&o);
    let ws = generate(&o, &all)?;
    eprintln!("== generated {} crates in {}", all.len(), ws.display());
    if o.generate_only {
        return Ok(());
    }
    let r = runner(&o, ws)?;
    let mut info = RunInfo::capture(&o);
    let t0 = Instant::now();

    eprintln!("== warm-up: cargo build and cargo check of each crate (dependencies)");
    for c in &all {
        for mode in [Mode::Build, Mode::Check] {
            let t = Instant::now();
            r.cargo(&["-q", mode.cmd(), "-p", &c.name], &[], None)?;
            eprintln!(
                "  {:<8} {}: {:.1} s",
                c.name,
                mode.cmd(),
                t.elapsed().as_secs_f64()
            );
        }
    }

    eprintln!("== measuring: {} timed runs per crate and mode", o.reps);
    let res = measure(&o, &r, &all)?;
    info.minutes = t0.elapsed().as_secs_f64() / 60.0;
    let samples = o.out.join("samples.tsv");
    save_samples(&samples, &info, &res)?;
    eprintln!("== samples written to {}", samples.display());
    let mut md = report(&o, &res, &info, false);
    append_macro_stats(&o, &mut md)?;
    write_outputs(&o, &md, Some((&info, &res)))
}

fn main() {
    if let Err(e) = run() {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}
