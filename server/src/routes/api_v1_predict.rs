//! `GET /api/v1/pilots/{id}/predict?rate=R` or `?concurrency=N` (exactly one; optional
//! `prompt_tokens`, `output_tokens`, `configuration`): the capacity twin's prediction, the same
//! JSON object as `server predict --json` ([`engine::twin::Prediction`]: TTFT, TPOT, ITL and E2E
//! p50/p90/p95/p99 in ms, throughput, saturation rate, basis, back-test, warnings).
//!
//! The twin is fitted on the pilot's stored load-test evidence, never the raw files
//! ([`desk::predict`], shared with the page and the CLI). Same bearer tokens and policy as the
//! rest of `/api/v1` ([`super::api_v1::ApiCaller`]): a pilot the caller may not see is 404, no
//! token 401. A bad, missing or doubled parameter is 400 naming it; a pilot without a load test
//! to fit is 422.

use super::api_v1::{ApiCaller, ApiError, ErrorBody};
use crate::AppState;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::routing::get;
use axum::{Json, Router};
use desk::ServiceError;
use desk::auth::visible_pilot;
use desk::predict::service as twin;
use engine::twin::Prediction;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/v1/pilots/{id}/predict", get(predict))
}

/// The parameters of the query string, each at most once; unknown names are refused.
struct Parameters {
    rate: Option<String>,
    concurrency: Option<String>,
    prompt_tokens: Option<String>,
    output_tokens: Option<String>,
    configuration: Option<String>,
}

fn parameters(
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Result<Parameters, ServiceError> {
    let Query(pairs) = query.map_err(|_| {
        ServiceError::BadArgument("query: the query string is not URL-encoded".into())
    })?;
    let mut p = Parameters {
        rate: None,
        concurrency: None,
        prompt_tokens: None,
        output_tokens: None,
        configuration: None,
    };
    for (name, value) in pairs {
        let slot = match name.as_str() {
            "rate" => &mut p.rate,
            "concurrency" => &mut p.concurrency,
            "prompt_tokens" => &mut p.prompt_tokens,
            "output_tokens" => &mut p.output_tokens,
            "configuration" => &mut p.configuration,
            other => {
                return Err(ServiceError::BadArgument(format!(
                    "{other}: unknown parameter; use rate or concurrency, and optionally \
                     prompt_tokens, output_tokens, configuration"
                )));
            }
        };
        if slot.replace(value).is_some() {
            return Err(ServiceError::BadArgument(format!(
                "{name}: given more than once"
            )));
        }
    }
    Ok(p)
}

/// The capacity twin's prediction for a load the pilot never ran.
///
/// Exactly one of `rate` (Poisson arrivals, requests per second) or `concurrency` (a closed
/// loop of that many users) is required; a request with neither, both, an unknown or a doubled
/// parameter answers 400 naming it. The same object as `server predict --json`.
#[utoipa::path(
    get,
    path = "/api/v1/pilots/{id}/predict",
    tag = "capacity",
    params(
        ("id" = i64, Path, description = "The pilot's id."),
        ("rate" = Option<f64>, Query, description = "Poisson arrival rate, requests per second \
            (> 0). Exactly one of `rate` and `concurrency`."),
        ("concurrency" = Option<u32>, Query, description = "Closed-loop users (≥ 1). Exactly \
            one of `rate` and `concurrency`."),
        ("prompt_tokens" = Option<u32>, Query, description = "Prompt length in tokens; default: \
            the measured scenario's."),
        ("output_tokens" = Option<u32>, Query, description = "Answer length in tokens; default: \
            the measured scenario's."),
        ("configuration" = Option<String>, Query, description = "Which serving configuration's \
            load tests to fit (as the load-tests page names it); default: the pilot's own."),
    ),
    responses(
        (status = 200, description = "The prediction.", body = Prediction),
        (status = 400, description = "A parameter is missing, malformed, unknown or given twice \
            (neither or both of `rate` and `concurrency`); the message starts with its name.",
            body = ErrorBody),
        (status = 401, description = "No valid token or session.", body = ErrorBody),
        (status = 404, description = "No such pilot, or the caller may not see it.", body = ErrorBody),
        (status = 422, description = "The pilot has no load test to fit the twin on, or one \
            request of `prompt_tokens` + `output_tokens` is longer than the measured KV cache (or \
            else the model's context window) holds.", body = ErrorBody),
    )
)]
pub async fn predict(
    State(state): State<AppState>,
    ApiCaller(user): ApiCaller,
    Path(id): Path<String>,
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Result<Json<Prediction>, ApiError> {
    let id: i64 = id.parse().map_err(|_| ServiceError::NotFound)?;
    let services = &state.services;
    let pilot = visible_pilot(&services.store, &user, id).await?;
    let p = parameters(query)?;
    let question = twin::question(
        p.rate.as_deref(),
        p.concurrency.as_deref(),
        p.prompt_tokens.as_deref(),
        p.output_tokens.as_deref(),
    )?;
    let configuration = p
        .configuration
        .map(|c| c.trim().to_string())
        .filter(|c| !c.is_empty());
    let fitted = twin::pilot_twin(services, id, configuration).await?;
    let longest = twin::longest_request(services, &pilot).await?;
    Ok(Json(fitted.ask(question, longest).await?))
}
