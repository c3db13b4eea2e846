//! Compile-fail cases, one DYNA code per file, with reviewed `.stderr`
//! snapshots (rustc 1.95 wording), and passing cases proving that valid
//! inputs compile.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/fail/*.rs");
    t.pass("ui/pass/*.rs");
}
