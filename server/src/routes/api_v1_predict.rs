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

use super::api_v1::{ApiCaller, ApiError};
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

/// `GET /api/v1/pilots/{id}/predict`.
async fn predict(
    State(state): State<AppState>,
    ApiCaller(user): ApiCaller,
    Path(id): Path<String>,
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Result<Json<Prediction>, ApiError> {
    let id: i64 = id.parse().map_err(|_| ServiceError::NotFound)?;
    let services = &state.services;
    visible_pilot(&services.store, &user, id).await?;
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
    Ok(Json(fitted.ask(question).await?))
}
