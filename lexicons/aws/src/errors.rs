//! An SDK failure, classified: a missing stack, or a reason (no-credentials vs
//! read-failed) decided from the error code — never an absence.

use aws_sdk_cloudformation::config::http::HttpResponse;
use aws_sdk_cloudformation::error::{DisplayErrorContext, ProvideErrorMetadata, SdkError};
use chant_lexicon::UnobservedReason;
use std::error::Error;

/// Error codes that mean the credentials are missing, expired, or not allowed here.
const CREDENTIAL_CODES: [&str; 16] = [
    "ExpiredToken",
    "ExpiredTokenException",
    "InvalidClientTokenId",
    "UnrecognizedClientException",
    "SignatureDoesNotMatch",
    "IncompleteSignature",
    "MissingAuthenticationToken",
    "InvalidAccessKeyId",
    "RequestExpired",
    "AccessDenied",
    "AccessDeniedException",
    "UnauthorizedOperation",
    "AuthFailure",
    "NotAuthorized",
    "UnauthorizedException",
    "InvalidToken",
];

/// A classified failure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub reason: UnobservedReason,
    pub detail: String,
    pub code: Option<String>,
}

impl Failure {
    pub fn new(reason: UnobservedReason, detail: impl Into<String>) -> Self {
        Failure {
            reason,
            detail: detail.into(),
            code: None,
        }
    }

    /// CloudFormation's "Stack with id X does not exist".
    pub fn is_missing_stack(&self) -> bool {
        self.code.as_deref() == Some("ValidationError") && self.detail.contains("does not exist")
    }

    /// Cloud Control's not-found.
    pub fn is_not_found(&self) -> bool {
        matches!(
            self.code.as_deref(),
            Some(
                "ResourceNotFoundException"
                    | "NoSuchBucket"
                    | "NoSuchEntity"
                    | "AWS.SimpleQueueService.NonExistentQueue"
                    | "QueueDoesNotExist"
                    | "NotFound"
                    | "InvalidGroup.NotFound"
                    | "InvalidVpcID.NotFound"
                    | "InvalidSubnetID.NotFound"
                    | "InvalidNetworkInterfaceID.NotFound"
            )
        )
    }

    /// Cloud Control cannot read this type at all.
    pub fn is_unsupported_type(&self) -> bool {
        matches!(
            self.code.as_deref(),
            Some("UnsupportedActionException" | "TypeNotFoundException")
        )
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.detail)
    }
}

/// Classify any SDK error.
pub fn classify<E>(error: &SdkError<E, HttpResponse>) -> Failure
where
    E: ProvideErrorMetadata + Error + Send + Sync + 'static,
{
    let status = error.raw_response().map(|r| r.status().as_u16());
    let code = error.code().map(str::to_owned);
    let message = error.message().map(str::to_owned);
    let detail = match (&code, &message) {
        (Some(c), Some(m)) => format!("{c}: {m}"),
        (Some(c), None) => match status {
            Some(s) => format!("{c} (HTTP {s})"),
            None => c.clone(),
        },
        _ => match status {
            Some(s)
                if !matches!(
                    error,
                    SdkError::DispatchFailure(_) | SdkError::TimeoutError(_)
                ) =>
            {
                format!("HTTP {s}: {}", chain_text(error))
            }
            _ => chain_text(error),
        },
    };
    let credential_code = code
        .as_deref()
        .is_some_and(|c| CREDENTIAL_CODES.contains(&c));
    let credential_status = code.is_none() && matches!(status, Some(401 | 403));
    let credential_chain = !matches!(error, SdkError::ServiceError(_))
        && detail.to_ascii_lowercase().contains("credential");
    let reason = if credential_code || credential_status || credential_chain {
        UnobservedReason::NoCredentials
    } else {
        UnobservedReason::ReadFailed
    };
    Failure {
        reason,
        detail,
        code,
    }
}

/// The whole error chain on one line, bounded (the SDK's top level alone says "dispatch failure").
pub fn chain_text(error: &(dyn Error + 'static)) -> String {
    let full = format!("{}", DisplayErrorContext(error));
    let one_line: String = full.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() > 400 {
        let cut: String = one_line.chars().take(400).collect();
        format!("{cut}…")
    } else {
        one_line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_stack_is_recognised_by_code_and_words() {
        let f = Failure {
            reason: UnobservedReason::ReadFailed,
            detail: "ValidationError: Stack with id shop-dev does not exist".into(),
            code: Some("ValidationError".into()),
        };
        assert!(f.is_missing_stack());
        let other = Failure {
            code: Some("ValidationError".into()),
            detail: "ValidationError: bad parameter".into(),
            ..f.clone()
        };
        assert!(!other.is_missing_stack());
    }
}
