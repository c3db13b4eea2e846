//! The rule every persisted format of dynakey follows (the schema snapshot,
//! a change feed's checkpoint, the migration runner's marks): each carries
//! its format's number, newer code reads every older format, and older code
//! refuses a newer one, saying so in the same words wherever it is read.

/// Why text stored in format `found` is refused by code that reads formats
/// 1 to `known`, or `None` when it can read it.
///
/// ```
/// use dynakey_core::format::newer;
/// assert_eq!(newer(2, 2), None);
/// assert_eq!(
///     newer(3, 2).unwrap(),
///     "format 3, which a newer dynakey writes (this one reads formats 1 to 2)"
/// );
/// ```
pub fn newer(found: u32, known: u32) -> Option<String> {
    (found > known).then(|| {
        format!(
            "format {found}, which a newer dynakey writes (this one reads formats 1 to {known})"
        )
    })
}
