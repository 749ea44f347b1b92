//! The report as files: `GET /pilots/{id}/report.html` and `/report.pdf` for signed-in users who
//! may see the pilot, and `GET /share/{token}` (HTML) and `/share/{token}/report.pdf` for a
//! customer contact holding a share link, without an account. `POST /pilots/{id}/report.pdf`
//! (form fields `lang`, `edition`) is the report page's download: the same PDF, recorded as an
//! export. A `GET` records nothing (it reads, or fills, the cache of printed PDFs).
//!
//! `?lang=de` chooses German (default English; a share link has its own language).
//! `?edition=internal` (staff only; anyone else gets 404, as for anything they may not see) is
//! the edition with prices ([`desk::report::Edition`]); share links always give the customer
//! edition. PDFs downloaded
//! by `POST` are recorded as exports (who, when, plan version, SHA-256); an unknown, revoked or expired share
//! link answers 404 with a page that says which, and nothing about the pilot.

use super::api_v1::{ApiCaller, ApiError};
use crate::AppState;
use axum::Router;
use axum::extract::{Form, Path, Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use desk::ServiceError;
use desk::report::{Document, Edition, Lang, Reader, share};
use serde::Deserialize;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/pilots/{id}/report.html", get(report_html))
        .route("/pilots/{id}/report.pdf", get(report_pdf).post(export_pdf))
        .route("/share/{token}", get(shared_html))
        .route("/share/{token}/report.pdf", get(shared_pdf))
}

#[derive(Deserialize)]
pub struct LangQuery {
    #[serde(default)]
    lang: String,
    #[serde(default)]
    edition: String,
}

/// The edition asked for, if `user` may have it: the internal one (prices) is staff-only.
fn edition_of(query: &LangQuery, user: &desk::model::SessionUser) -> Result<Edition, ServiceError> {
    let edition = Edition::parse(&query.edition).ok_or_else(|| {
        ServiceError::invalid(format!(
            "edition: `{}` is not a report edition (customer, internal)",
            query.edition
        ))
    })?;
    if edition.priced() && !user.role.is_staff() {
        return Err(ServiceError::NotFound);
    }
    Ok(edition)
}

fn lang_of(query: &LangQuery) -> Result<Lang, ServiceError> {
    Lang::parse(&query.lang).ok_or_else(|| {
        ServiceError::invalid(format!(
            "lang: `{}` is not a report language (en, de)",
            query.lang
        ))
    })
}

/// A file name from a pilot name: letters, digits and dashes.
fn file_stem(name: &str) -> String {
    let stem: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    let stem = stem
        .split('-')
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    if stem.is_empty() {
        "pilot".into()
    } else {
        stem
    }
}

fn private(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert("x-robots-tag", HeaderValue::from_static("noindex"));
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    response
}

fn pdf_response(bytes: Vec<u8>, name: &str, lang: Lang, edition: Edition) -> Response {
    let disposition = format!(
        "attachment; filename=\"pilot-report-{}-{}{}.pdf\"",
        file_stem(name),
        lang.code(),
        if edition.priced() { "-internal" } else { "" }
    );
    let mut response = (StatusCode::OK, bytes).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/pdf"),
    );
    if let Ok(value) = HeaderValue::from_str(&disposition) {
        headers.insert(header::CONTENT_DISPOSITION, value);
    }
    private(response)
}

async fn report_html(
    State(state): State<AppState>,
    ApiCaller(user): ApiCaller,
    Path(id): Path<i64>,
    Query(query): Query<LangQuery>,
) -> Result<Response, ApiError> {
    let lang = lang_of(&query)?;
    let services = &state.services;
    let pilot = desk::auth::visible_pilot(&services.store, &user, id).await?;
    let edition = edition_of(&query, &user)?;
    let (html, _) = desk::report::report_html(services, pilot, lang, edition).await?;
    let mut response = private(Html(html).into_response());
    // The report page previews the document in a frame of this site (everything else: DENY).
    response.headers_mut().insert(
        header::X_FRAME_OPTIONS,
        HeaderValue::from_static("SAMEORIGIN"),
    );
    response.headers_mut().insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(app::server::csp::REPORT_POLICY),
    );
    Ok(response)
}

/// The pilot's report as a PDF for `user`, without recording an export.
async fn report_pdf(
    State(state): State<AppState>,
    ApiCaller(user): ApiCaller,
    Path(id): Path<i64>,
    Query(query): Query<LangQuery>,
) -> Result<Response, ApiError> {
    pdf_for(&state, &user, id, &query, false).await
}

/// The report page's download: the PDF, recorded as an export.
async fn export_pdf(
    State(state): State<AppState>,
    ApiCaller(user): ApiCaller,
    Path(id): Path<i64>,
    Form(query): Form<LangQuery>,
) -> Result<Response, ApiError> {
    pdf_for(&state, &user, id, &query, true).await
}

async fn pdf_for(
    state: &AppState,
    user: &desk::model::SessionUser,
    id: i64,
    query: &LangQuery,
    record: bool,
) -> Result<Response, ApiError> {
    let lang = lang_of(query)?;
    let services = &state.services;
    let pilot = desk::auth::visible_pilot(&services.store, user, id).await?;
    let edition = edition_of(query, user)?;
    let name = pilot.name.clone();
    let document = Document {
        lang,
        edition,
        reader: Reader::SignedIn,
        pdf: true,
    };
    let rendered = if record {
        desk::report::export(services, pilot, document, Some(user.id), "web").await?
    } else {
        desk::report::printed(services, pilot, document).await?
    };
    Ok(pdf_response(rendered.bytes, &name, lang, edition))
}

/// The page a dead share link shows: it says why, and nothing about the pilot.
fn gone(reason: &str) -> Response {
    let body = format!(
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Link not available</title>\
         <style>body{{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:15vh auto;padding:0 1rem;color:#1d2430}}</style></head>\
         <body><h1>This report link is not available</h1><p>{reason}</p>\
         <p>Ask the person who sent it to you for a new link.</p></body></html>"
    );
    private((StatusCode::NOT_FOUND, Html(body)).into_response())
}

async fn shared_pilot(
    state: &AppState,
    token: &str,
) -> Result<Result<(desk::model::Pilot, Lang), Response>, ServiceError> {
    if !share::looks_like_token(token) {
        return Ok(Err(gone("The link is not valid.")));
    }
    let store = &state.services.store;
    let Some(link) = store.share_link_by_hash(&share::token_hash(token)).await? else {
        return Ok(Err(gone("The link is not valid.")));
    };
    if link.revoked_ms.is_some() {
        return Ok(Err(gone("The link was revoked.")));
    }
    if !link.is_active(desk::store::now_ms()) {
        return Ok(Err(gone("The link has expired.")));
    }
    let Some(pilot) = store.pilot(link.pilot_id).await? else {
        return Ok(Err(gone("The link is not valid.")));
    };
    Ok(Ok((pilot, Lang::parse(&link.lang).unwrap_or_default())))
}

async fn shared_html(
    State(state): State<AppState>,
    Path(token): Path<String>,
) -> Result<Response, ApiError> {
    let (pilot, lang) = match shared_pilot(&state, &token).await? {
        Ok(found) => found,
        Err(page) => return Ok(page),
    };
    let html = desk::report::shared_report_html(&state.services, pilot, lang, &token).await?;
    let mut response = private(Html(html).into_response());
    response.headers_mut().insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(app::server::csp::SHARED_REPORT_POLICY),
    );
    Ok(response)
}

async fn shared_pdf(
    State(state): State<AppState>,
    Path(token): Path<String>,
) -> Result<Response, ApiError> {
    let (pilot, lang) = match shared_pilot(&state, &token).await? {
        Ok(found) => found,
        Err(page) => return Ok(page),
    };
    let name = pilot.name.clone();
    let document = Document {
        lang,
        edition: Edition::Customer,
        reader: Reader::ShareLink,
        pdf: true,
    };
    let rendered = desk::report::printed(&state.services, pilot, document).await?;
    Ok(pdf_response(rendered.bytes, &name, lang, Edition::Customer))
}

#[cfg(test)]
mod tests {
    #[test]
    fn file_names_keep_letters_and_digits() {
        assert_eq!(super::file_stem("Acme </b> Pilot 2"), "acme-b-pilot-2");
        assert_eq!(super::file_stem("«»"), "pilot");
    }
}
