//! The REST API for scripts and CI pipelines: `/api/v1/…`.
//!
//! Callers authenticate with a personal API token (`Authorization: Bearer pd_…`, created under
//! *Account* or with `server token create`); a browser session works too. Authorisation is the
//! same policy as everywhere else ([`desk::auth`]): customers see only their organisation's
//! pilots and get 404 for anything else. Errors are JSON: `{"error": "…", "kind": "…"}` (`kind`:
//! [`ServiceError::kind`], e.g. `bad_argument` for a 400, `invalid` for a 422).

use crate::AppState;
use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequestParts, State};
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use desk::ServiceError;
use desk::auth::{Need, Viewer, authorise, bearer_user};
use desk::model::SessionUser;
use engine::account::OrganisationKind;
use engine::pilot::{PilotFields, PilotForm, PilotStatus};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/v1/pilots", get(list_pilots).post(create_pilot))
}

/// Every refusal of the API: what went wrong, naming the field or parameter, and its kind.
#[derive(Serialize, ToSchema)]
pub struct ErrorBody {
    /// For people: what was refused and why, naming the field, parameter or file line.
    pub error: String,
    /// Stable name of the kind of refusal: `unauthenticated` (401), `forbidden` (403),
    /// `not_found` (404), `bad_argument` (400), `invalid` (422), `conflict` (409), `too_large`
    /// (413), `method_not_allowed` (405), `unsupported_media_type` (415), `too_many_attempts`
    /// (429), `unavailable` (503), `internal` (500).
    pub kind: String,
    /// The same refusal in German, where the service worded it in German too (the interface's
    /// pages show it to German readers). Scripts read `error`, which is always English.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_de: Option<String>,
}

impl ErrorBody {
    pub fn not_found(message: String) -> Self {
        ErrorBody {
            error: message,
            kind: "not_found".into(),
            error_de: None,
        }
    }
}

/// An error answered as JSON with its status.
pub struct ApiError(pub ServiceError);

impl From<ServiceError> for ApiError {
    fn from(error: ServiceError) -> Self {
        ApiError(error)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status =
            StatusCode::from_u16(self.0.status_code()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let mut response = (
            status,
            Json(ErrorBody {
                error: self.0.to_string(),
                kind: self.0.kind().into(),
                error_de: self.0.german().map(str::to_string),
            }),
        )
            .into_response();
        if status == StatusCode::UNAUTHORIZED {
            response.headers_mut().insert(
                axum::http::header::WWW_AUTHENTICATE,
                axum::http::HeaderValue::from_static("Bearer realm=\"pilot-desk\""),
            );
        }
        if let Some(seconds) = self.0.retry_after_s() {
            response
                .headers_mut()
                .insert(axum::http::header::RETRY_AFTER, seconds.into());
        }
        response
    }
}

/// The caller of an API request: a token's owner, or the browser session's user.
pub struct ApiCaller(pub SessionUser);

impl FromRequestParts<AppState> for ApiCaller {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let authorization = parts
            .headers
            .get(axum::http::header::AUTHORIZATION)
            .map(|value| value.to_str().map_err(|_| ServiceError::Unauthenticated))
            .transpose()?;
        let user = match bearer_user(&state.services.store, authorization).await? {
            Some(user) => Some(user),
            None if authorization.is_some() => None,
            None => parts
                .extensions
                .get::<Viewer>()
                .and_then(|viewer| viewer.user.clone()),
        };
        Ok(ApiCaller(authorise(user.as_ref(), Need::SignedIn)?))
    }
}

/// A pilot as the API lists it.
#[derive(Serialize, ToSchema)]
pub struct PilotSummary {
    pub id: i64,
    pub name: String,
    /// Name of the customer organisation that owns the pilot.
    pub organisation: String,
    pub status: PilotStatus,
    /// The model served, as noted on the pilot (a catalog id or a Hugging Face name).
    pub model: String,
    /// The GPU model as noted, e.g. `Tesla V100-SXM2-16GB`; empty when not noted.
    pub gpu_type: String,
    /// Number of GPUs; 0 when not noted.
    pub gpu_count: i64,
    /// Serving engine, e.g. `vLLM`.
    pub engine: String,
    pub engine_version: String,
}

/// `GET /api/v1/pilots`: the pilots the caller may see.
#[utoipa::path(
    get,
    path = "/api/v1/pilots",
    tag = "pilots",
    responses(
        (status = 200, description = "The pilots the caller may see (customers: their \
            organisation's).", body = Vec<PilotSummary>),
        (status = 401, description = "No valid token or session.", body = ErrorBody),
    )
)]
pub async fn list_pilots(
    State(state): State<AppState>,
    ApiCaller(user): ApiCaller,
) -> Result<Json<Vec<PilotSummary>>, ApiError> {
    let filter = (!user.role.is_staff()).then_some(user.organisation_id);
    let pilots = state
        .services
        .store
        .list_pilots(filter)
        .await
        .map_err(ServiceError::from)?;
    Ok(Json(
        pilots
            .into_iter()
            .map(|p| PilotSummary {
                id: p.id,
                name: p.name,
                organisation: p.organisation_name,
                status: p.status,
                model: p.model,
                gpu_type: p.gpu_type,
                gpu_count: p.gpu_count,
                engine: p.engine,
                engine_version: p.engine_version,
            })
            .collect(),
    ))
}

/// Body of `POST /api/v1/pilots`. Only `name` and `organisation` are required; every bound
/// the server checks is stated here, so a body the schema admits is a body it accepts.
#[derive(Deserialize, ToSchema)]
pub struct NewPilot {
    /// Not blank; no control characters.
    #[schema(
        min_length = 1,
        max_length = 120,
        pattern = "^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f]*[^\\s\\u0000-\\u001f\\u007f-\\u009f][^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f]*$"
    )]
    pub name: String,
    /// Name of an existing customer organisation (404 when there is none of that name).
    #[schema(min_length = 1, max_length = 200)]
    pub organisation: String,
    #[serde(default)]
    #[schema(
        max_length = 4000,
        pattern = "^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f]*$"
    )]
    pub description: String,
    /// `planning` (the default, also when empty), `running`, `reporting` or `closed`.
    #[serde(default)]
    #[schema(pattern = "^\\s*(planning|running|reporting|closed)?\\s*$")]
    pub status: String,
    #[serde(default)]
    #[schema(
        max_length = 200,
        pattern = "^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f]*$"
    )]
    pub model: String,
    #[serde(default)]
    #[schema(
        max_length = 120,
        pattern = "^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f]*$"
    )]
    pub gpu_type: String,
    /// A whole number (JSON Schema counts `8.0` as one too).
    #[serde(default, deserialize_with = "whole_number")]
    #[schema(minimum = 1, maximum = 4096)]
    pub gpu_count: Option<i64>,
    #[serde(default)]
    #[schema(
        max_length = 60,
        pattern = "^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f]*$"
    )]
    pub engine: String,
    #[serde(default)]
    #[schema(
        max_length = 60,
        pattern = "^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f]*$"
    )]
    pub engine_version: String,
}

/// An optional whole number, written as an integer or as a number without a fraction (`8.0`),
/// as JSON Schema's `integer` admits both.
fn whole_number<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<i64>, D::Error> {
    let Some(number) = Option::<serde_json::Number>::deserialize(deserializer)? else {
        return Ok(None);
    };
    if let Some(n) = number.as_i64() {
        return Ok(Some(n));
    }
    match number.as_f64() {
        Some(f) if f.fract() == 0.0 && f.abs() <= 9_007_199_254_740_992.0 => Ok(Some(f as i64)),
        _ => Err(serde::de::Error::custom(format!(
            "`{number}` is not a whole number"
        ))),
    }
}

/// The id of what a request created.
#[derive(Serialize, ToSchema)]
pub struct Created {
    pub id: i64,
}

/// `POST /api/v1/pilots` (assessors and admins): creates a pilot, answers `201 {"id": …}`.
#[utoipa::path(
    post,
    path = "/api/v1/pilots",
    tag = "pilots",
    request_body = NewPilot,
    responses(
        (status = 201, description = "Created.", body = Created),
        (status = 401, description = "No valid token or session.", body = ErrorBody),
        (status = 403, description = "A staff role that may not create pilots (sales).", body = ErrorBody),
        (status = 404, description = "Customers: there is nothing here for them; or no customer \
            organisation has the name given (the message says which).", body = ErrorBody),
        (status = 422, description = "The body is not the JSON described, or a field is \
            invalid (a name too long); the message names it.",
            body = ErrorBody),
    )
)]
pub async fn create_pilot(
    State(state): State<AppState>,
    ApiCaller(user): ApiCaller,
    body: Result<Json<NewPilot>, JsonRejection>,
) -> Result<(StatusCode, Json<Created>), ApiError> {
    let user = authorise(Some(&user), Need::Editor)?;
    let Json(body) = body.map_err(|rejection| {
        ServiceError::invalid(format!("request body: {}", rejection.body_text()))
    })?;
    let store = &state.services.store;
    let organisation = match store
        .organisation_by_name(body.organisation.trim())
        .await
        .map_err(ServiceError::from)?
    {
        Some((id, OrganisationKind::Customer)) => id,
        _ => {
            return Err(ServiceError::NoSuch(format!(
                "organisation: no customer organisation named “{}”",
                body.organisation.trim()
            ))
            .into());
        }
    };
    let fields = PilotFields::parse(&PilotForm {
        name: body.name,
        description: body.description,
        status: body.status,
        model: body.model,
        gpu_type: body.gpu_type,
        gpu_count: body.gpu_count.map(|n| n.to_string()).unwrap_or_default(),
        engine: body.engine,
        engine_version: body.engine_version,
    })
    .map_err(ServiceError::from)?;
    let id = store
        .create_pilot(organisation, &fields, Some(user.id))
        .await
        .map_err(ServiceError::from)?;
    Ok((StatusCode::CREATED, Json(Created { id })))
}
