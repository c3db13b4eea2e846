//! An SDK error sorted into the variants dynakey types: a dispatch
//! failure is `Unreachable`, a validation error `Validation`, a throttle
//! `Throttled` (with its reasons), a failed condition `ConditionFailed`;
//! the rest stays `Error::Sdk`.

use std::fmt;

use aws_sdk_dynamodb::error::SdkError;

use super::{reach, throttle, Error, Throttle};

/// An operation's error type of the SDK (DynamoDB's or the Streams API's):
/// what [`Error`] reads a service error's code and message from.
pub(crate) trait ServiceError:
    aws_sdk_dynamodb::error::ProvideErrorMetadata + std::error::Error + Send + Sync + 'static
{
}

impl<E> ServiceError for E where
    E: aws_sdk_dynamodb::error::ProvideErrorMetadata + std::error::Error + Send + Sync + 'static
{
}

/// The SDK's raw response type an error keeps.
pub(crate) trait RawResponse: fmt::Debug + Send + Sync + 'static {}

impl<R: fmt::Debug + Send + Sync + 'static> RawResponse for R {}

impl Error {
    /// Sorts an SDK error into the variants dynakey types: validation
    /// (matched by code, the SDK has no variant for it), throttling and a
    /// failed condition without an item; the rest stays [`Error::Sdk`].
    pub(crate) fn from_sdk<E: ServiceError, R: RawResponse>(
        err: SdkError<E, R>,
        attempts: u32,
    ) -> Self {
        if matches!(err, aws_sdk_dynamodb::error::SdkError::DispatchFailure(_)) {
            let (endpoint, reason) = reach::unreachable(&err);
            return Self::Unreachable {
                endpoint,
                reason,
                source: Box::new(err),
            };
        }
        let code = err.as_service_error().and_then(|se| se.code());
        match code {
            Some("ValidationException") => {
                let message = err
                    .as_service_error()
                    .and_then(|se| se.message())
                    .unwrap_or_default()
                    .to_owned();
                Self::Validation {
                    message,
                    source: Box::new(err),
                }
            }
            Some(c) if is_throttling_code(c) => Self::throttled(err, attempts),
            Some("ConditionalCheckFailedException") => Self::ConditionFailed {
                item: None,
                source: Box::new(err),
            },
            _ => Self::Sdk(Box::new(err)),
        }
    }

    /// [`Error::from_sdk`] for the Streams API, which throttles with
    /// `LimitExceededException` ("the request rate is too high"): there it
    /// is [`Error::Throttled`]. DynamoDB's own API uses that code for its
    /// quotas (tables, concurrent table updates), which no retry lifts, so
    /// `from_sdk` leaves it to [`Error::Sdk`].
    #[cfg(feature = "streams")]
    pub(crate) fn from_streams_sdk<E: ServiceError, R: RawResponse>(
        err: SdkError<E, R>,
        attempts: u32,
    ) -> Self {
        if err.as_service_error().and_then(|se| se.code()) == Some("LimitExceededException") {
            return Self::throttled(err, attempts);
        }
        Self::from_sdk(err, attempts)
    }

    /// The throttle an SDK error is, with its operation and reasons.
    fn throttled<E: ServiceError, R: RawResponse>(err: SdkError<E, R>, attempts: u32) -> Self {
        Self::Throttled {
            attempts,
            operation: throttle::operation_of::<E>(),
            reasons: throttles_of_sdk(&err),
            source: Box::new(err),
        }
    }
}

/// The `ThrottlingReasons` of an SDK error: from its typed exception (the
/// data operations model them), else from the raw response's body.
fn throttles_of_sdk<E, R>(err: &aws_sdk_dynamodb::error::SdkError<E, R>) -> Vec<Throttle>
where
    E: std::error::Error + 'static,
    R: 'static,
{
    let typed = err
        .as_service_error()
        .map(|se| throttle::throttles_of(se))
        .unwrap_or_default();
    if !typed.is_empty() {
        return typed;
    }
    err.raw_response()
        .map(|raw| throttle::throttles_in_body(raw))
        .unwrap_or_default()
}

/// The error codes DynamoDB uses for throttling.
pub(crate) fn is_throttling_code(code: &str) -> bool {
    matches!(
        code,
        "ProvisionedThroughputExceededException"
            | "ThrottlingException"
            | "RequestLimitExceeded"
            | "Throttling"
            | "TooManyRequestsException"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(feature = "streams")]
    #[test]
    fn the_streams_apis_limit_exceeded_is_a_throttle_and_dynamodbs_is_not() {
        use aws_sdk_dynamodb::error::SdkError;
        use aws_sdk_dynamodbstreams::operation::get_records::GetRecordsError;
        use aws_smithy_runtime_api::client::orchestrator::HttpResponse;
        use aws_smithy_runtime_api::http::StatusCode;
        use aws_smithy_types::body::SdkBody;
        use aws_smithy_types::error::ErrorMetadata;
        let limit = || {
            let meta = ErrorMetadata::builder()
                .code("LimitExceededException")
                .message("Your request rate is too high.")
                .build();
            let status = StatusCode::try_from(400).unwrap();
            SdkError::service_error(
                GetRecordsError::generic(meta),
                HttpResponse::new(status, SdkBody::empty()),
            )
        };
        let err = Error::from_streams_sdk(limit(), 3);
        assert!(err.is_throttled(), "{err:?}");
        let Error::Throttled { operation, .. } = &err else {
            unreachable!()
        };
        assert_eq!(*operation, "GetRecords");
        // The same code from DynamoDB's own API is a quota, not a throttle.
        assert!(matches!(Error::from_sdk(limit(), 3), Error::Sdk(_)));
    }
}
