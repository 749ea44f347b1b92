//! `GET /api/v1/pilots/{id}/recommendation`: the pilot's production recommendation, the same
//! object as `server recommend --pilot N --json` and the report's section
//! ([`engine::production::CapacityPlan`]: `demand`, `candidates` with `configuration`, `holds`,
//! `holds_n_plus_1`, `predicted` per plan mark with `p50`, `p99`, `low`, `high`, `basis`, and
//! `cards`; `recommended`, `story`, `next_steps`, `warnings`).
//!
//! The `recommended` configuration is the same for every caller; staff also get each
//! candidate's `cost` at the GPU catalog's prices per GPU-hour, customers never. A pilot the
//! caller may not see is 404; a pilot the recommendation cannot be made for yet (no approved
//! plan, no gateway log, a model outside the catalog) is 422 saying why.
//!
//! Only cards that can still be ordered are candidates; the plan's `left_out` names the others
//! with why. `?include_unorderable=true` weighs them too (`false`, the default, or nothing:
//! not); any other parameter or value is 400 naming it.

use super::api_v1::{ApiCaller, ApiError, ErrorBody};
use crate::AppState;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::routing::get;
use axum::{Json, Router};
use desk::ServiceError;
use desk::auth::visible_pilot;
use engine::production::CapacityPlan;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/v1/pilots/{id}/recommendation", get(recommendation))
}

/// The production recommendation: the capacity plan.
///
/// Demand as an arrival process, every catalog candidate simulated under it with all copies up
/// and one copy down, the `recommended` configuration (the same for every caller) with its
/// ranges, the `story`, `next_steps` and `warnings`. Staff also get each candidate's `cost`;
/// customers never. The same object as `server recommend --pilot N --json`.
#[utoipa::path(
    get,
    path = "/api/v1/pilots/{id}/recommendation",
    tag = "capacity",
    params(
        ("id" = i64, Path, description = "The pilot's id."),
        ("include_unorderable" = Option<bool>, Query, description = "Weigh cards at end of sale \
            or end of life too (default false: they are left out and named in `left_out`)."),
    ),
    responses(
        (status = 200, description = "The capacity plan.", body = CapacityPlan),
        (status = 400, description = "An unknown parameter, or `include_unorderable` not \
            `true` or `false`; the message starts with its name.", body = ErrorBody),
        (status = 401, description = "No valid token or session.", body = ErrorBody),
        (status = 404, description = "No such pilot, or the caller may not see it.", body = ErrorBody),
        (status = 422, description = "It cannot be made yet (no approved plan, no gateway log, \
            a model outside the catalog); the message says why.", body = ErrorBody),
    )
)]
pub async fn recommendation(
    State(state): State<AppState>,
    ApiCaller(user): ApiCaller,
    Path(id): Path<String>,
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Result<Json<CapacityPlan>, ApiError> {
    let id: i64 = id.parse().map_err(|_| ServiceError::NotFound)?;
    let services = &state.services;
    let pilot = visible_pilot(&services.store, &user, id).await?;
    let include_unorderable = include_unorderable(query)?;
    let priced = user.role.is_staff();
    match desk::capacity::for_pilot_with(services, &pilot, priced, include_unorderable).await? {
        Ok(plan) => Ok(Json(plan)),
        Err(why) => Err(ServiceError::Invalid(why.to_string()).into()),
    }
}

/// `include_unorderable` from the query string: `true` or `false` (default false), at most
/// once; no other parameter.
fn include_unorderable(
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Result<bool, ServiceError> {
    let Query(pairs) = query.map_err(|_| {
        ServiceError::BadArgument("query: the query string is not URL-encoded".into())
    })?;
    let mut include = None;
    for (name, value) in pairs {
        if name != "include_unorderable" {
            return Err(ServiceError::BadArgument(format!(
                "{name}: unknown parameter; the only one is include_unorderable"
            )));
        }
        let flag = match value.trim() {
            "true" | "1" => true,
            "false" | "0" | "" => false,
            other => {
                return Err(ServiceError::BadArgument(format!(
                    "include_unorderable: `{other}` is neither true nor false"
                )));
            }
        };
        if include.replace(flag).is_some() {
            return Err(ServiceError::BadArgument(
                "include_unorderable: given more than once".into(),
            ));
        }
    }
    Ok(include.unwrap_or(false))
}
