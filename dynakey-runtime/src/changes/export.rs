//! A table export to S3 in DynamoDB JSON as a source, read line by line
//! from any [`BufRead`] (a file, `flate2`'s `GzDecoder` over the
//! `.json.gz` S3 holds: gzip is the caller's).
//!
//! The formats (AWS, "DynamoDB table export output format",
//! developerguide/S3DataExport.Output.html):
//!
//! - a **full export** is one `{"Item": {..}}` per line, each item in
//!   DynamoDB's marshalled JSON;
//! - an **incremental export** is one change per item per line:
//!   `{"Metadata": {"WriteTimestampMicros": ..}, "Keys": {..}, "NewImage":
//!   {..}, "OldImage": {..}}`, with `NewImage` and `OldImage` present as the
//!   change and the export's view type (`NEW_AND_OLD_IMAGES`, the default,
//!   or `NEW_IMAGE`) have them. `WriteTimestampMicros` is read as an
//!   export writes it (`{"N": ".."}`), as text or as a number.
//!
//! Empty lines (an empty partition's file) are skipped; a bad line is an
//! [`ExportError`] with its line number, and the read goes on, so one bad
//! line loses nothing else; collecting into `Result<Vec<_>, _>` stops at
//! the first instead.

use std::fmt;
use std::io::BufRead;

use super::change::Change;
use super::decoder::ChangeDecoder;
use super::dynamo_json::{export_line, ExportLine, ReadError};
use super::record::{ChangeRecord, Operation, StreamView};
use super::time::{self, Source};
use crate::codec::Item;
use crate::error::change::ChangeError;

/// A line of a table export that could not be read, with its line number
/// (from 1, counting every line).
///
/// ```
/// use dynakey_runtime::changes::{ExportErrorKind, ExportReader};
/// let text = "{\"Item\": {\"pk\": {\"S\": \"A\"}}}\n{\"Item\": {\"pk\": {\"Q\": 1}}}\n";
/// let errors: Vec<_> = ExportReader::new(text.as_bytes()).items().filter_map(Result::err).collect();
/// assert_eq!(errors[0].line, 2);
/// assert!(matches!(&errors[0].kind, ExportErrorKind::Malformed { message } if message.contains("Item.pk")));
/// assert!(errors[0].to_string().starts_with("export line 2: "), "{}", errors[0]);
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub struct ExportError {
    /// The line, from 1.
    pub line: u64,
    /// What is wrong with it.
    pub kind: ExportErrorKind,
}

/// What is wrong with an export's line (see the example on
/// [`ExportError`]).
#[derive(Debug)]
#[non_exhaustive]
pub enum ExportErrorKind {
    /// Reading failed (the reader's error, such as a truncated gzip
    /// stream); the read ends here.
    Io(std::io::Error),
    /// The line is not a line of a DynamoDB JSON export: not UTF-8, not
    /// JSON, no `Item` or `Keys`, an attribute value of no DynamoDB type
    /// (the message names its path), an Amazon Ion line, a bad
    /// `WriteTimestampMicros`.
    Malformed {
        /// What is wrong, and where in the line.
        message: String,
    },
    /// The line reads, but not as a typed item or change: an item of an
    /// entity that does not decode, an unknown type under a strict
    /// decoder, a change lacking an image it needs; or a value nested past
    /// the levels DynamoDB stores ([`ChangeError::TooDeep`]), refused
    /// before it is read.
    Decode(ChangeError),
}

impl ExportError {
    fn malformed(line: u64, message: impl Into<String>) -> Self {
        Self {
            line,
            kind: ExportErrorKind::Malformed {
                message: message.into(),
            },
        }
    }

    /// A change that cannot be written into a table (no new image).
    pub(crate) fn unapplied(line: u64) -> Self {
        Self::malformed(
            line,
            "a change without its new image cannot be applied to a table",
        )
    }

    /// A [`ChangeError`] of line `line`: malformed values stay malformed.
    fn from_change(line: u64, e: ChangeError) -> Self {
        match e {
            ChangeError::Malformed { message } => Self::malformed(line, message),
            other => Self {
                line,
                kind: ExportErrorKind::Decode(other),
            },
        }
    }
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "export line {}: {}", self.line, self.kind)
    }
}

/// What is wrong, without the line number.
///
/// ```
/// use dynakey_runtime::changes::ExportReader;
/// let e = ExportReader::new("{oops".as_bytes()).items().next().unwrap().unwrap_err();
/// assert!(e.kind.to_string().starts_with("not JSON"), "{}", e.kind);
/// ```
impl fmt::Display for ExportErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExportErrorKind::Io(e) => write!(f, "reading failed: {e}"),
            ExportErrorKind::Malformed { message } => f.write_str(message),
            ExportErrorKind::Decode(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ExportError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            ExportErrorKind::Io(e) => Some(e),
            ExportErrorKind::Decode(e) => Some(e),
            ExportErrorKind::Malformed { .. } => None,
        }
    }
}

/// Reads a table export in DynamoDB JSON line by line: as raw items
/// ([`items`](Self::items)), typed items ([`typed`](Self::typed)), change
/// records ([`records`](Self::records)) or typed changes
/// ([`changes`](Self::changes)). Each is an iterator of results, one per
/// non-empty line, each error with its line number.
///
/// ```
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "BOOK", discriminator_attr = "entity")]
/// # #[pk("BOOK#<id>")]
/// # struct Book { id: u32, title: String }
/// use dynakey_runtime::changes::{ChangeDecoder, ExportReader};
/// // A full export's lines, in the shape AWS documents (one `Item` per line).
/// let export = r#"{"Item":{"pk":{"S":"BOOK#103"},"entity":{"S":"BOOK"},"id":{"N":"103"},"title":{"S":"Book 103 Title"}}}
/// {"Item":{"pk":{"S":"BOOK#104"},"entity":{"S":"BOOK"},"id":{"N":"1.04E2"},"title":{"S":"Book 104 Title"}}}
/// {"Item":{"pk":{"S":"AUTHOR#1"},"entity":{"S":"AUTHOR"}}}
/// "#;
/// let books: Vec<Book> = ExportReader::new(export.as_bytes())
///     .typed(ChangeDecoder::<Book>::entity())    // other types are skipped (strict(): errors)
///     .collect::<Result<_, _>>()
///     .unwrap();
/// assert_eq!(books[1], Book { id: 104, title: "Book 104 Title".into() });
/// assert_eq!(ExportReader::new(export.as_bytes()).items().count(), 3);
/// ```
#[derive(Debug)]
#[must_use]
pub struct ExportReader<R> {
    input: R,
    line: u64,
    view: StreamView,
    buf: Vec<u8>,
    done: bool,
}

impl<R: BufRead> ExportReader<R> {
    /// A reader of the export `input` holds (one data file; read each of
    /// the export's files with its own reader). See the example on
    /// [`ExportReader`].
    pub fn new(input: R) -> Self {
        Self {
            input,
            line: 0,
            view: StreamView::NewAndOldImages,
            buf: Vec::new(),
            done: false,
        }
    }

    /// The view type an incremental export was made with
    /// (`ExportViewType`): [`StreamView::NewAndOldImages`], the default, or
    /// [`StreamView::NewImage`]. Under `NEW_IMAGE` a line with a new image
    /// may be an insert or an update (the export cannot say which): it is
    /// read as a [`Operation::Modify`] lacking its old image, and a delete
    /// is its `Keys` alone, an [`Operation::Remove`] lacking its old image
    /// (see [`ChangeDecoder::allow_partial`]).
    ///
    /// ```
    /// use dynakey_runtime::changes::{ExportReader, Operation, StreamView};
    /// let line = r#"{"Metadata":{"WriteTimestampMicros":{"N":"1731600037123456"}},"Keys":{"pk":{"S":"A"}},"NewImage":{"pk":{"S":"A"}}}"#;
    /// let both = ExportReader::new(line.as_bytes()).records().next().unwrap().unwrap();
    /// let newer = ExportReader::new(line.as_bytes()).view(StreamView::NewImage).records().next().unwrap().unwrap();
    /// assert_eq!((both.op, newer.op), (Operation::Insert, Operation::Modify));
    /// ```
    pub fn view(mut self, view: StreamView) -> Self {
        self.view = view;
        self
    }

    /// The next non-empty line, read, with its number.
    fn next_line(&mut self) -> Option<Result<(u64, ExportLine), ExportError>> {
        loop {
            if self.done {
                return None;
            }
            self.buf.clear();
            match self.input.read_until(b'\n', &mut self.buf) {
                Ok(0) => {
                    self.done = true;
                    return None;
                }
                Ok(_) => self.line += 1,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.done = true;
                    return Some(Err(ExportError {
                        line: self.line + 1,
                        kind: ExportErrorKind::Io(e),
                    }));
                }
            }
            let line = self.line;
            let Ok(text) = std::str::from_utf8(&self.buf) else {
                return Some(Err(ExportError::malformed(line, "not UTF-8 text")));
            };
            let text = text.trim_start_matches('\u{feff}').trim();
            if text.is_empty() {
                continue;
            }
            if text.starts_with("$ion_1_0") {
                return Some(Err(ExportError::malformed(
                    line,
                    "an Amazon Ion export; this reader reads exports in DYNAMODB_JSON",
                )));
            }
            return Some(export_line(text).map(|v| (line, v)).map_err(|e| match e {
                // An attribute of no type, named by its path.
                ReadError::Json(e) if e.is_data() => ExportError::malformed(line, e.to_string()),
                ReadError::Json(e) => ExportError::malformed(line, format!("not JSON: {e}")),
                ReadError::TooDeep(at) => ExportError::from_change(line, ChangeError::too_deep(at)),
            }));
        }
    }

    /// A full export's items, as stored. A line of an incremental export
    /// is an error here (read those with [`records`](Self::records)).
    /// See the examples on [`ExportReader`] and [`ExportError`].
    pub fn items(self) -> impl Iterator<Item = Result<Item, ExportError>> {
        self.items_numbered().map(|r| r.map(|(_, item)| item))
    }

    /// A full export's items decoded as `T` by `decoder` (a union's or an
    /// entity's: [`ChangeDecoder::union`], [`ChangeDecoder::entity`]).
    /// Items of types the decoder does not know are skipped, or errors
    /// with a [`strict`](ChangeDecoder::strict) decoder; an item of a known
    /// type that does not decode is an error naming the attribute. See the
    /// example on [`ExportReader`].
    pub fn typed<T>(
        self,
        decoder: ChangeDecoder<T>,
    ) -> impl Iterator<Item = Result<T, ExportError>> {
        let mut items = self.items_numbered();
        std::iter::from_fn(move || loop {
            let (line, item) = match items.next()? {
                Ok(x) => x,
                Err(e) => return Some(Err(e)),
            };
            match decoder.decode_item(&item) {
                Ok(Some(t)) => return Some(Ok(t)),
                Ok(None) => continue,
                Err(e) => return Some(Err(ExportError::from_change(line, e))),
            }
        })
    }

    fn items_numbered(mut self) -> impl Iterator<Item = Result<(u64, Item), ExportError>> {
        std::iter::from_fn(move || {
            let (line, v) = match self.next_line()? {
                Ok(x) => x,
                Err(e) => return Some(Err(e)),
            };
            Some(full_item(v).map(|i| (line, i)).map_err(|e| e.at(line)))
        })
    }

    /// Every line as a [`ChangeRecord`]: an incremental export's changes
    /// (`OldImage` and `NewImage`: a modify; `NewImage` alone: an insert,
    /// see [`view`](Self::view); `OldImage` or `Keys` alone: a remove),
    /// dated by `WriteTimestampMicros`; and a full export's items as
    /// inserts without a time (the table's state as changes, to start a
    /// copy from). An export cannot tell a TTL expiry from a delete.
    ///
    /// ```
    /// use std::time::{Duration, UNIX_EPOCH};
    /// use dynakey_runtime::changes::{ExportReader, Operation};
    /// // Incremental export lines in the shape AWS documents.
    /// let export = r#"{"Metadata":{"WriteTimestampMicros":{"N":"1731600037123456"}},"Keys":{"pk":{"S":"CUST#100"}},"OldImage":{"pk":{"S":"CUST#100"},"name":{"S":"Ann"}},"NewImage":{"pk":{"S":"CUST#100"},"name":{"S":"Anne"}}}
    /// {"Metadata":{"WriteTimestampMicros":{"N":"1731600038000000"}},"Keys":{"pk":{"S":"CUST#200"}},"OldImage":{"pk":{"S":"CUST#200"}}}
    /// not json
    /// "#;
    /// let records: Vec<_> = ExportReader::new(export.as_bytes()).records().collect();
    /// let first = records[0].as_ref().unwrap();
    /// assert_eq!(first.op, Operation::Modify);
    /// assert_eq!(first.created_at, Some(UNIX_EPOCH + Duration::from_micros(1_731_600_037_123_456)));
    /// assert_eq!(records[1].as_ref().unwrap().op, Operation::Remove);
    /// assert_eq!(records[2].as_ref().unwrap_err().line, 3);
    /// ```
    pub fn records(self) -> impl Iterator<Item = Result<ChangeRecord, ExportError>> {
        self.records_numbered().map(|r| r.map(|(_, record)| record))
    }

    /// Every line as a typed change, decoded by `decoder` (see
    /// [`records`](Self::records) for what each line becomes).
    ///
    /// ```
    /// # use dynakey_derive::DynamoEntity;
    /// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
    /// # #[dynamo(crate = "dynakey_runtime", entity = "CUSTOMER", discriminator_attr = "entity")]
    /// # #[pk("CUST#<id>")]
    /// # struct Customer { id: u32, name: String }
    /// use dynakey_runtime::changes::{ChangeDecoder, ChangeKind, ExportReader};
    /// let line = r#"{"Metadata":{"WriteTimestampMicros":"1731600037123456"},"Keys":{"pk":{"S":"CUST#100"}},
    ///   "OldImage":{"pk":{"S":"CUST#100"},"entity":{"S":"CUSTOMER"},"id":{"N":"100"},"name":{"S":"Ann"}},
    ///   "NewImage":{"pk":{"S":"CUST#100"},"entity":{"S":"CUSTOMER"},"id":{"N":"1E+2"},"name":{"S":"Anne"}}}"#
    ///     .replace('\n', "");
    /// let change = ExportReader::new(line.as_bytes())
    ///     .changes(ChangeDecoder::<Customer>::entity())
    ///     .next().unwrap().unwrap();
    /// let ChangeKind::Modified { changed, .. } = &change.kind else { panic!() };
    /// assert_eq!(changed, &["name"]);                  // 100 and 1E+2 are one number
    /// ```
    pub fn changes<T>(
        self,
        decoder: ChangeDecoder<T>,
    ) -> impl Iterator<Item = Result<Change<T>, ExportError>> {
        let mut lines = self.records_numbered();
        std::iter::from_fn(move || {
            let (line, r) = match lines.next()? {
                Ok(x) => x,
                Err(e) => return Some(Err(e)),
            };
            Some(
                decoder
                    .decode(&r)
                    .map_err(|e| ExportError::from_change(line, e)),
            )
        })
    }

    pub(crate) fn records_numbered(
        mut self,
    ) -> impl Iterator<Item = Result<(u64, ChangeRecord), ExportError>> {
        let view = self.view;
        std::iter::from_fn(move || {
            let (line, v) = match self.next_line()? {
                Ok(x) => x,
                Err(e) => return Some(Err(e)),
            };
            Some(record(v, view).map(|r| (line, r)).map_err(|e| e.at(line)))
        })
    }
}

/// What is wrong with a line, before its number is known.
struct LineError(ChangeError);

impl LineError {
    fn at(self, line: u64) -> ExportError {
        ExportError::from_change(line, self.0)
    }
}

fn bad(message: impl Into<String>) -> LineError {
    LineError(ChangeError::malformed(message))
}

/// A full export line's item.
fn full_item(line: ExportLine) -> Result<Item, LineError> {
    match (line.item, line.keys) {
        (Some(item), _) => Ok(item),
        (None, Some(_)) => Err(bad(
            "an incremental export's line (Keys, NewImage, OldImage): read it as a change record",
        )),
        (None, None) => Err(bad("no \"Item\": not a line of a DynamoDB JSON export")),
    }
}

/// A line of either export as a change record.
fn record(line: ExportLine, view: StreamView) -> Result<ChangeRecord, LineError> {
    if let Some(it) = line.item {
        let mut r = ChangeRecord::new(Operation::Insert, it.clone()).with_new(it);
        r.view = Some(StreamView::NewImage);
        return Ok(r);
    }
    let Some(keys) = line.keys else {
        return Err(bad(
            "no \"Keys\" or \"Item\": not a line of a DynamoDB JSON export",
        ));
    };
    // An image written as `{}` is no image.
    let (old, new) = (
        line.old.filter(|i| !i.is_empty()),
        line.new.filter(|i| !i.is_empty()),
    );
    let op = match (&old, &new) {
        (Some(_), Some(_)) => Operation::Modify,
        (None, Some(_)) if view.has_old() => Operation::Insert,
        (None, Some(_)) => Operation::Modify,
        (_, None) => Operation::Remove,
    };
    let mut r = ChangeRecord::new(op, keys);
    r.old = old;
    r.new = new;
    r.view = Some(view);
    r.created_at = time::read(
        line.write_time.as_ref(),
        Source::Export,
        None,
        "Metadata.WriteTimestampMicros",
    )
    .map_err(LineError)?;
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{self, Read};

    /// A reader whose second read fails, as a truncated gzip stream does.
    struct Broken(u8);

    impl Read for Broken {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.0 += 1;
            if self.0 == 1 {
                let line = b"{\"Item\":{\"pk\":{\"S\":\"A\"}}}\n";
                buf[..line.len()].copy_from_slice(line);
                Ok(line.len())
            } else {
                Err(io::Error::new(io::ErrorKind::UnexpectedEof, "truncated"))
            }
        }
    }

    #[test]
    fn an_io_error_ends_the_read_after_what_was_read() {
        let got: Vec<_> = ExportReader::new(io::BufReader::new(Broken(0)))
            .items()
            .collect();
        assert_eq!(got.len(), 2);
        assert!(got[0].is_ok());
        let e = got[1].as_ref().unwrap_err();
        assert!(
            matches!(e.kind, ExportErrorKind::Io(_)) && e.line == 2,
            "{e}"
        );
    }

    #[test]
    fn every_bad_line_is_reported_and_the_rest_read() {
        let text = b"\r\n{\"Item\":{\"pk\":{\"S\":\"A\"}}}\r\n\xff\xfe\n$ion_1_0 {Item:{pk:\"B\"}}\n\n{\"Keys\":{\"pk\":{\"S\":\"C\"}}}\n{\"Item\":{\"pk\":{\"S\":\"D\"}}}";
        let got: Vec<_> = ExportReader::new(&text[..]).items().collect();
        let lines: Vec<_> = got
            .iter()
            .map(|r| {
                r.as_ref().map_or_else(
                    |e| format!("err {}", e.line),
                    |i| i["pk"].as_s().unwrap().clone(),
                )
            })
            .collect();
        assert_eq!(lines, ["A", "err 3", "err 4", "err 6", "D"]);
        let ion = got[2].as_ref().unwrap_err().to_string();
        assert!(
            ion.contains("Ion") && ion.contains("DYNAMODB_JSON"),
            "{ion}"
        );
        let inc = got[3].as_ref().unwrap_err().to_string();
        assert!(inc.contains("incremental"), "{inc}");
    }

    #[test]
    fn a_bad_write_time_names_its_field() {
        let line = br#"{"Metadata":{"WriteTimestampMicros":{"S":"soon"}},"Keys":{"pk":{"S":"A"}}}"#;
        let e = ExportReader::new(&line[..])
            .records()
            .next()
            .unwrap()
            .unwrap_err();
        assert!(
            e.to_string().contains("Metadata.WriteTimestampMicros"),
            "{e}"
        );
        assert!(matches!(e.kind, ExportErrorKind::Malformed { .. }));
    }
}
