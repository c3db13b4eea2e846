//! Who a served endpoint answers: programs on this machine, not web pages.
//!
//! A browser lets any page it shows send requests to `127.0.0.1`, and a
//! page whose host name its owner points at `127.0.0.1` (DNS rebinding)
//! even reads the answers as its own. So by default a served endpoint
//! refuses every request that carries an `Origin` (browsers add it to
//! every cross-origin request and every POST) and every request whose
//! `Host` is not the loopback address it listens on; CORS preflights are
//! refused, and no answer carries `Access-Control-Allow-Origin`. A program
//! (the AWS CLI, boto3, NoSQL Workbench, an SDK) sends no `Origin` and the
//! `Host` of the URL it was given, so it is answered as before.
//! [`Access::allow_origin`] opts a known browser tool in;
//! [`Access::credentials`] makes the endpoint check SigV4 signatures.

use std::fmt;
use std::time::{Duration, SystemTime};

use aws_credential_types::Credentials;
use aws_sigv4::http_request::{sign, SignableBody, SignableRequest, SigningSettings};
use aws_sigv4::sign::v4::SigningParams;
use axum::http::{HeaderMap, Method};

use crate::error::{Error, RefusedReason};

/// Who a served [`Endpoint`](super::Endpoint) answers (see the module docs):
/// by default programs on this machine, no web page.
///
/// ```
/// use dynakey_runtime::local::Access;
/// let access = Access::default()
///     .allow_origin("http://localhost:3000").unwrap()   // a tool of yours in the browser
///     .credentials("AKIDLOCAL", "local-secret");        // and SigV4 with these
/// assert_eq!(access.allowed_origins(), ["http://localhost:3000"]);
/// assert!(Access::default().allow_origin("*").is_err()); // one origin at a time
/// ```
#[derive(Clone, Default)]
#[must_use]
pub struct Access {
    origins: Vec<String>,
    credentials: Option<(String, String)>,
}

impl fmt::Debug for Access {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Access")
            .field("origins", &self.origins)
            .field(
                "credentials",
                &self.credentials.as_ref().map(|(k, _)| format!("{k}:…")),
            )
            .finish()
    }
}

impl Access {
    /// Also answers browser requests from `origin` (`scheme://host[:port]`,
    /// as a browser sends it in `Origin`), with the CORS headers a browser
    /// needs. Anything else (`*`, `null`, a path) is refused.
    pub fn allow_origin(mut self, origin: impl AsRef<str>) -> Result<Self, Error> {
        let origin = origin.as_ref();
        let bad = |why: &str| {
            Error::refused(
                RefusedReason::InvalidSetting,
                format!("--allow-origin {origin:?}: {why}"),
            )
        };
        let (scheme, rest) = origin
            .split_once("://")
            .ok_or_else(|| bad("an origin is scheme://host[:port], e.g. http://localhost:3000"))?;
        if !matches!(scheme, "http" | "https") {
            return Err(bad("the scheme is http or https"));
        }
        let host_ok = !rest.is_empty()
            && rest
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-.:[]".contains(c));
        if !host_ok {
            return Err(bad("an origin has no path, query, wildcard or user"));
        }
        self.origins.push(origin.to_ascii_lowercase());
        Ok(self)
    }

    /// Requires every request to be signed with SigV4 under these
    /// credentials (what the AWS CLI and boto3 sign with when given them),
    /// any region, within 15 minutes of this machine's clock.
    pub fn credentials(mut self, access_key: impl Into<String>, secret: impl Into<String>) -> Self {
        self.credentials = Some((access_key.into(), secret.into()));
        self
    }

    /// The origins [`allow_origin`](Self::allow_origin) added.
    pub fn allowed_origins(&self) -> &[String] {
        &self.origins
    }

    /// Whether requests must be signed.
    pub fn requires_signature(&self) -> bool {
        self.credentials.is_some()
    }

    fn allows(&self, origin: &str) -> bool {
        self.origins.iter().any(|o| o.eq_ignore_ascii_case(origin))
    }

    /// What to do with a request to the endpoint on `port` (its body is
    /// read only when a signature is checked).
    pub(crate) fn judge(&self, method: &Method, headers: &HeaderMap, port: u16) -> Verdict {
        let text = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
        let host = text("host").unwrap_or("");
        if !loopback_host(host, port) {
            return Verdict::Refuse(Refusal::forbidden(format!(
                "this endpoint answers requests to 127.0.0.1:{port} or localhost:{port} only, not to Host {host:?} (a page that points a name of its own at this machine sends that)"
            )));
        }
        let origin = match headers.get("origin") {
            None => None,
            Some(o) => match o.to_str() {
                Ok(o) if self.allows(o) => Some(o.to_owned()),
                _ => {
                    return Verdict::Refuse(Refusal::forbidden(format!(
                        "this endpoint answers programs on this machine, not web pages: a request from origin {:?} is refused (serve with --allow-origin ORIGIN to let a known tool in)",
                        String::from_utf8_lossy(o.as_bytes())
                    )))
                }
            },
        };
        if method == Method::OPTIONS {
            return match (origin, text("access-control-request-method")) {
                (Some(origin), Some(_)) => Verdict::Preflight {
                    origin,
                    headers: text("access-control-request-headers").map(str::to_owned),
                },
                _ => Verdict::Refuse(Refusal::forbidden(
                    "an OPTIONS request is answered only as a CORS preflight of an allowed origin"
                        .into(),
                )),
            };
        }
        Verdict::Forward { origin }
    }

    /// Checks the SigV4 signature of a request whose `body` was read, when
    /// credentials are required.
    pub(crate) fn check_signature(
        &self,
        method: &Method,
        path: &str,
        headers: &HeaderMap,
        body: &[u8],
        now: SystemTime,
    ) -> Result<(), Refusal> {
        let Some((key, secret)) = &self.credentials else {
            return Ok(());
        };
        verify_sigv4(key, secret, method, path, headers, body, now)
    }
}

/// Whether `host` (a `Host` header) names the loopback address of `port`.
fn loopback_host(host: &str, port: u16) -> bool {
    let (name, p) = match host.rsplit_once(':') {
        Some((n, p)) => (n, p.parse::<u16>().ok()),
        None => (host, Some(80)),
    };
    p == Some(port) && (name == "127.0.0.1" || name.eq_ignore_ascii_case("localhost"))
}

/// What the endpoint does with one request.
#[derive(Debug, PartialEq)]
pub(crate) enum Verdict {
    /// Passed on to the engine; `origin` is the allowed browser origin the
    /// answer names in `Access-Control-Allow-Origin`.
    Forward { origin: Option<String> },
    /// A CORS preflight of an allowed origin, answered here.
    Preflight {
        origin: String,
        headers: Option<String>,
    },
    /// Refused, with this answer.
    Refuse(Refusal),
}

/// An answer refusing a request: its status and a DynamoDB-shaped error
/// (`__type` and `message`), which SDKs report as the error's code.
#[derive(Debug, PartialEq)]
pub(crate) struct Refusal {
    pub status: u16,
    pub kind: &'static str,
    pub message: String,
}

impl Refusal {
    fn forbidden(message: String) -> Self {
        Refusal {
            status: 403,
            kind: "AccessDeniedException",
            message,
        }
    }

    fn auth(kind: &'static str, message: impl Into<String>) -> Self {
        Refusal {
            status: 400,
            kind,
            message: message.into(),
        }
    }

    /// The JSON body DynamoDB writes for an error.
    pub fn body(&self) -> String {
        serde_json::json!({
            "__type": format!("com.amazon.coral.service#{}", self.kind),
            "message": self.message,
        })
        .to_string()
    }
}

/// How far a signature's time may be from this machine's (AWS's window).
const SKEW: Duration = Duration::from_secs(15 * 60);

/// Verifies a SigV4 `Authorization` header by signing the same request
/// again with `secret` (the headers it lists as signed, its body, its
/// time and credential scope) and comparing the signatures.
fn verify_sigv4(
    key: &str,
    secret: &str,
    method: &Method,
    path: &str,
    headers: &HeaderMap,
    body: &[u8],
    now: SystemTime,
) -> Result<(), Refusal> {
    const BAD_SIGNATURE: &str = "InvalidSignatureException";
    let text = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    let auth = text("authorization").ok_or_else(|| {
        Refusal::auth(
            "MissingAuthenticationTokenException",
            "Request is missing Authentication Token (this endpoint was served with --credentials)",
        )
    })?;
    let fields = auth
        .strip_prefix("AWS4-HMAC-SHA256 ")
        .and_then(parse_authorization)
        .ok_or_else(|| {
            Refusal::auth(
                "IncompleteSignatureException",
                "the Authorization header is not an AWS4-HMAC-SHA256 signature",
            )
        })?;
    let scope: Vec<&str> = fields.credential.split('/').collect();
    let [akid, date, region, service, "aws4_request"] = scope[..] else {
        return Err(Refusal::auth(
            "IncompleteSignatureException",
            "the signature's credential scope is not KEY/DATE/REGION/SERVICE/aws4_request",
        ));
    };
    if akid != key {
        return Err(Refusal::auth(
            "UnrecognizedClientException",
            "The security token included in the request is invalid.",
        ));
    }
    let amz_date = text("x-amz-date").unwrap_or("");
    let time = parse_amz_date(amz_date)
        .filter(|_| amz_date.starts_with(date))
        .ok_or_else(|| {
            Refusal::auth(
                BAD_SIGNATURE,
                "the request's X-Amz-Date is missing or does not match its credential scope",
            )
        })?;
    let skew = now
        .duration_since(time)
        .or_else(|_| time.duration_since(now))
        .unwrap_or(Duration::MAX);
    if skew > SKEW {
        return Err(Refusal::auth(
            BAD_SIGNATURE,
            format!(
                "Signature expired: {amz_date} is more than 15 minutes from this machine's time"
            ),
        ));
    }
    let signed: Vec<(&str, &str)> = fields
        .signed_headers
        .split(';')
        .map(|name| Some((name, text(name)?)))
        .collect::<Option<_>>()
        .ok_or_else(|| Refusal::auth(BAD_SIGNATURE, "a signed header is missing"))?;
    let host = text("host").unwrap_or("");
    let uri = format!("http://{host}{path}");
    let identity = Credentials::new(key, secret, None, None, "dynakey-serve").into();
    let mut settings = SigningSettings::default();
    settings.excluded_headers = None;
    let params = SigningParams::builder()
        .identity(&identity)
        .region(region)
        .name(service)
        .time(time)
        .settings(settings)
        .build()
        .map_err(|e| Refusal::auth(BAD_SIGNATURE, e.to_string()))?
        .into();
    let req = SignableRequest::new(
        method.as_str(),
        uri,
        signed.into_iter(),
        SignableBody::Bytes(body),
    )
    .map_err(|e| Refusal::auth(BAD_SIGNATURE, e.to_string()))?;
    let ours = sign(req, &params)
        .map_err(|e| Refusal::auth(BAD_SIGNATURE, e.to_string()))?
        .signature()
        .to_owned();
    if same_signature(&ours, fields.signature) {
        Ok(())
    } else {
        Err(Refusal::auth(
            BAD_SIGNATURE,
            "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.",
        ))
    }
}

struct AuthFields<'a> {
    credential: &'a str,
    signed_headers: &'a str,
    signature: &'a str,
}

/// `Credential=.., SignedHeaders=.., Signature=..` in any order.
fn parse_authorization(s: &str) -> Option<AuthFields<'_>> {
    let (mut credential, mut signed_headers, mut signature) = (None, None, None);
    for part in s.split(',') {
        let (k, v) = part.trim().split_once('=')?;
        match k {
            "Credential" => credential = Some(v),
            "SignedHeaders" => signed_headers = Some(v),
            "Signature" => signature = Some(v),
            _ => {}
        }
    }
    Some(AuthFields {
        credential: credential?,
        signed_headers: signed_headers?,
        signature: signature?,
    })
}

/// `YYYYMMDDTHHMMSSZ`.
fn parse_amz_date(s: &str) -> Option<SystemTime> {
    let format = time::macros::format_description!("[year][month][day]T[hour][minute][second]Z");
    let t = time::PrimitiveDateTime::parse(s, &format).ok()?;
    Some(t.assume_utc().into())
}

/// Whether two signatures are equal, without the time it takes telling
/// how much of one matches: both are HMAC'd under a key of this call and
/// the tags compared in constant time (`hmac`'s verify).
fn same_signature(ours: &str, theirs: &str) -> bool {
    use hmac::{Hmac, KeyInit, Mac};
    let key = uuid::Uuid::new_v4();
    let tag = |s: &str| {
        let mut m = <Hmac<sha2::Sha256> as KeyInit>::new_from_slice(key.as_bytes())
            .unwrap_or_else(|_| unreachable!("HMAC takes keys of any length"));
        m.update(s.as_bytes());
        m
    };
    tag(theirs)
        .verify_slice(&tag(ours).finalize().into_bytes())
        .is_ok()
}

#[cfg(test)]
#[path = "access_tests.rs"]
mod tests;
