//! Notices: what a plain form's answer says on the page it redirects to.
//!
//! Why: without JavaScript, the evidence page's forms post to the server, which answers with a
//! redirect back to the page. The answer used to travel in the address (`?error=<message>`),
//! and the page showed whatever that parameter said: escaped, but anyone could send a link
//! whose page said "Your session expired, sign in at evil.example" in the product's own error
//! box (issue #38). Now the message is kept here and the address carries only a random token
//! (`?notice=<token>`); the page shows the message only to the user it was written for, on its
//! pilot, for [`NOTICE_MINUTES`] minutes. Outcomes that are only a number (`?stored=12`) stay
//! in the address, and the page reads them as numbers.

#[cfg(feature = "server")]
use crate::{ServiceError, Services, model::SessionUser, store::notices::NoticeRow, store::now_ms};
use serde::{Deserialize, Serialize};

/// How long a notice can be shown.
pub const NOTICE_MINUTES: i64 = 10;

#[cfg(feature = "server")]
const NOTICE_MS: i64 = NOTICE_MINUTES * 60_000;

#[cfg(feature = "server")]
/// Longest message kept (an importer's error is a line or two).
const MAX_MESSAGE_CHARS: usize = 4_000;

/// What kind of answer a notice is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NoticeKind {
    /// A refusal: shown as an alert.
    Error,
    /// Something done: shown as a status line.
    Done,
}

#[cfg(feature = "server")]
impl NoticeKind {
    fn code(self) -> &'static str {
        match self {
            NoticeKind::Error => "error",
            NoticeKind::Done => "done",
        }
    }
}

/// A notice as the page shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Notice {
    pub kind: NoticeKind,
    pub message: String,
}

#[cfg(feature = "server")]
/// Keeps `message` for `user` on `pilot_id`; answers the token its redirect carries.
pub async fn post(
    services: &Services,
    user: &SessionUser,
    pilot_id: i64,
    kind: NoticeKind,
    message: &str,
) -> Result<String, ServiceError> {
    let token = hex::encode(rand::random::<[u8; 16]>());
    let now = now_ms();
    let message: String = message.chars().take(MAX_MESSAGE_CHARS).collect();
    services
        .store
        .put_notice(
            &NoticeRow {
                token: token.clone(),
                user_id: user.id,
                pilot_id,
                kind: kind.code().into(),
                message,
                created_ms: now,
            },
            now - NOTICE_MS,
        )
        .await?;
    Ok(token)
}

#[cfg(feature = "server")]
/// The notice `token` if it is `user`'s, on `pilot_id`, and recent; `None` otherwise (a
/// token from someone else's link shows nothing).
pub async fn find(
    services: &Services,
    user: &SessionUser,
    pilot_id: i64,
    token: &str,
) -> Result<Option<Notice>, ServiceError> {
    if token.len() != 32 || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Ok(None);
    }
    let row = services
        .store
        .notice(token, user.id, pilot_id, now_ms() - NOTICE_MS)
        .await?;
    Ok(row.map(|row| Notice {
        kind: if row.kind == "error" {
            NoticeKind::Error
        } else {
            NoticeKind::Done
        },
        message: row.message,
    }))
}
