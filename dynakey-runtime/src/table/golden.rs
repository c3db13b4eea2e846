//! A committed export kept current by a test in the user's crate, as the
//! schema snapshot is: compared, or written on request. Here, not in
//! `export`, because the snapshot (which needs no feature) shares it.

use std::path::Path;

/// Compares the committed export at `path` with `text` (what the code
/// exports now): `Ok` when equal. With `DYNAKEY_EXPORT=overwrite` in the
/// environment it writes `text` to `path` instead (review the diff and
/// deploy it): the explicit command that updates the stack's file.
///
/// ```
/// use dynakey_runtime::table::export::check_file;
/// let path = std::env::temp_dir().join(format!("dynakey-export-doc-{}.json", std::process::id()));
/// std::fs::write(&path, "{}\n").unwrap();
/// assert!(check_file(&path, "{}\n").is_ok());
/// let err = check_file(&path, "{\"a\": 1}\n").unwrap_err();
/// assert!(err.contains("line 1") && err.contains("DYNAKEY_EXPORT=overwrite"));
/// # std::fs::remove_file(&path).unwrap();
/// ```
#[cfg(feature = "export")]
pub fn check_file(path: &Path, text: &str) -> Result<(), String> {
    committed(
        path,
        text,
        &Committed {
            var: "DYNAKEY_EXPORT",
            what: "export",
            says: "the code exports",
            stale: "Rewrite it with `DYNAKEY_EXPORT=overwrite cargo test`, review the diff and deploy it.",
            refuse: |_, _| None,
        },
    )
}

/// The words of one kind of committed file (an export, a schema snapshot).
pub(crate) struct Committed {
    /// The variable that, set to `overwrite`, writes the file.
    pub(crate) var: &'static str,
    /// What the file is.
    pub(crate) what: &'static str,
    /// Who says the new text ("the code says").
    pub(crate) says: &'static str,
    /// What to do about a stale file.
    pub(crate) stale: &'static str,
    /// For a file that differs from the new text, what makes the change
    /// worse than stale (`Some(why)`, said after the file's path).
    pub(crate) refuse: fn(old: &str, new: &str) -> Option<String>,
}

/// Compares the committed file at `path` with `text`, or writes it when
/// `<var>=overwrite`; never silently.
pub(crate) fn committed(path: &Path, text: &str, c: &Committed) -> Result<(), String> {
    if std::env::var(c.var).is_ok_and(|v| v == "overwrite") {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        return std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()));
    }
    match std::fs::read_to_string(path) {
        Ok(old) if old == text => Ok(()),
        Ok(old) => {
            if let Some(why) = (c.refuse)(&old, text) {
                return Err(format!("the {} {} {why}", c.what, path.display()));
            }
            let first = old
                .lines()
                .zip(text.lines())
                .position(|(a, b)| a != b)
                .unwrap_or_else(|| old.lines().count().min(text.lines().count()));
            Err(format!(
                "the {} {} is stale: line {} reads {:?}, {} {:?}.\n{}",
                c.what,
                path.display(),
                first + 1,
                old.lines().nth(first).unwrap_or(""),
                c.says,
                text.lines().nth(first).unwrap_or(""),
                c.stale,
            ))
        }
        Err(_) => Err(format!(
            "no {} at {}: write it with `{}=overwrite cargo test` and commit it",
            c.what,
            path.display(),
            c.var
        )),
    }
}
