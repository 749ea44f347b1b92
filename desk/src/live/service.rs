//! The live feed on the server: ingest tokens, a posted batch read record by record, and the
//! roll of a day's records into its evidence file (see the parent module for why).

use super::*;
use crate::ServiceError;
use crate::Services;
use crate::model::{EvidenceKind, SessionUser};
use crate::store::evidence::NewEvidence;
use crate::store::live::{IngestCaller, LiveDayWrite, LiveRecordRow, PendingDay};
use crate::traffic::GatewayLogSummary;
use crate::traffic::service as traffic;
use engine::traffic::{GatewayError, GatewayReader, ReadOptions};
use serde_json::value::RawValue;
use std::io::Read;

/// Largest batch body accepted as sent (compressed or not): 413 above it.
pub const MAX_BATCH_BYTES: usize = 8 * 1024 * 1024;
/// Largest batch once decompressed (a gzip bomb stops here).
pub const MAX_DECODED_BYTES: usize = 64 * 1024 * 1024;
/// Most records in one batch.
pub const MAX_BATCH_RECORDS: usize = 20_000;
/// Longest token name.
const MAX_NAME_CHARS: usize = 80;

fn internal(error: impl std::fmt::Display) -> ServiceError {
    tracing::error!(%error, "live gateway feed failed");
    ServiceError::Internal
}

// ---- tokens ------------------------------------------------------------------------------------

/// Creates an ingest token for `pilot_id` (admins and assessors; the caller must see the
/// pilot). The secret is in the answer only.
pub async fn create_token(
    store: &crate::store::Store,
    pilot_id: i64,
    name: &str,
    created_by: Option<i64>,
) -> Result<IssuedIngestToken, ServiceError> {
    let name = name.trim();
    let name = if name.is_empty() { "gateway" } else { name };
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(ServiceError::invalid(format!(
            "name: at most {MAX_NAME_CHARS} characters"
        )));
    }
    let pilot = store.pilot(pilot_id).await?.ok_or(ServiceError::NotFound)?;
    if pilot.archived_ms.is_some() {
        return Err(ServiceError::Conflict(format!(
            "pilot #{pilot_id} is archived: it takes no new evidence"
        )));
    }
    let secret = format!("{INGEST_TOKEN_PREFIX}{}", crate::auth::new_secret_hex());
    let prefix = &secret[..INGEST_TOKEN_PREFIX.len() + 6];
    let id = store
        .create_ingest_token(
            pilot_id,
            name,
            &crate::auth::token_hash(&secret),
            prefix,
            created_by,
        )
        .await?;
    Ok(IssuedIngestToken {
        id,
        pilot_id,
        name: name.to_string(),
        token: secret,
    })
}

/// The token an `Authorization` header carries, as its pilot's caller; every failure is the
/// same [`ServiceError::Unauthenticated`] (it never says whether the pilot exists).
pub async fn caller(
    services: &Services,
    authorization: Option<&str>,
) -> Result<IngestCaller, ServiceError> {
    let token = authorization
        .and_then(|value| value.strip_prefix("Bearer "))
        .map(str::trim)
        .filter(|token| token.starts_with(INGEST_TOKEN_PREFIX))
        .ok_or(ServiceError::Unauthenticated)?;
    services
        .store
        .ingest_caller(&crate::auth::token_hash(token))
        .await?
        .ok_or(ServiceError::Unauthenticated)
}

/// Whether `user` may manage `pilot_id`'s tokens: an editor who can see the pilot (404
/// otherwise, as everywhere).
pub async fn authorise_tokens(
    services: &Services,
    user: Option<&SessionUser>,
    pilot_id: i64,
) -> Result<SessionUser, ServiceError> {
    let user = crate::auth::authorise(user, crate::auth::Need::Editor)?;
    crate::auth::visible_pilot(&services.store, &user, pilot_id).await?;
    Ok(user)
}

// ---- a batch -----------------------------------------------------------------------------------

/// The body as JSON text: gzip-decoded when `content_encoding` says so or the body starts with
/// gzip's magic bytes, bounded by [`MAX_DECODED_BYTES`].
pub fn decode_body<'a>(
    body: &'a [u8],
    content_encoding: Option<&str>,
) -> Result<std::borrow::Cow<'a, [u8]>, ServiceError> {
    let gzip = content_encoding.is_some_and(|e| e.trim().eq_ignore_ascii_case("gzip"))
        || body.starts_with(&[0x1f, 0x8b]);
    if !gzip {
        return Ok(std::borrow::Cow::Borrowed(body));
    }
    let mut decoded = Vec::new();
    flate2::read::GzDecoder::new(body)
        .take(MAX_DECODED_BYTES as u64 + 1)
        .read_to_end(&mut decoded)
        .map_err(|e| ServiceError::BadArgument(format!("body: not valid gzip ({e})")))?;
    if decoded.len() > MAX_DECODED_BYTES {
        return Err(ServiceError::BodyTooLarge(format!(
            "body: more than {} MiB once decompressed",
            MAX_DECODED_BYTES >> 20
        )));
    }
    Ok(std::borrow::Cow::Owned(decoded))
}

/// The batch's records in order: a JSON array of records (what LiteLLM's `generic_api`
/// callback posts), a single object, or JSON Lines (each line a record or an array of them).
/// A line that is not JSON is a rejected record; a body that is not JSON at all is refused.
///
/// Each record is built as far as it is kept ([`kept_part`]): a LiteLLM payload is about
/// 13 KB, nearly all prompt and answer, and building all of it as JSON values took most of a
/// post's time.
pub fn split_batch(body: &[u8]) -> Result<Vec<Result<serde_json::Value, String>>, ServiceError> {
    let text = std::str::from_utf8(body).map_err(|e| {
        ServiceError::invalid(format!(
            "body: not UTF-8 text (invalid byte at offset {})",
            e.valid_up_to()
        ))
    })?;
    let trimmed = text.trim_start_matches('\u{feff}').trim();
    if trimmed.is_empty() {
        return Err(ServiceError::invalid("body: no records"));
    }
    let mut records = Vec::new();
    if let Ok(value) = serde_json::from_str::<&RawValue>(trimmed) {
        flatten(value, &mut records);
    } else {
        for (number, line) in trimmed.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            match serde_json::from_str::<&RawValue>(line) {
                Ok(value) => flatten(value, &mut records),
                Err(e) => records.push(Err(format!("line {}: not JSON ({e})", number + 1))),
            }
        }
    }
    if records.len() > MAX_BATCH_RECORDS {
        return Err(ServiceError::BodyTooLarge(format!(
            "body: {} records; at most {MAX_BATCH_RECORDS} in one batch",
            records.len()
        )));
    }
    Ok(records)
}

/// Adds the records of one JSON value (valid JSON): an array's objects, or the object itself.
fn flatten(value: &RawValue, into: &mut Vec<Result<serde_json::Value, String>>) {
    let text = value.get();
    if text.starts_with('[') {
        match serde_json::from_str::<Vec<&RawValue>>(text) {
            Ok(items) => into.extend(items.into_iter().map(object)),
            Err(e) => into.push(Err(e.to_string())),
        }
    } else {
        into.push(object(value));
    }
}

/// One record: a JSON object, built as far as it is kept.
fn object(value: &RawValue) -> Result<serde_json::Value, String> {
    if !value.get().starts_with('{') {
        return Err("not a JSON object".to_string());
    }
    kept_part(value.get()).map_err(|e| e.to_string())
}

/// A JSON object as the feed keeps it: a LiteLLM record (it has `startTime`, and `id` or
/// `request_id`) with only the fields its reader reads, every other field stepped over unbuilt
/// (what [`engine::traffic::litellm::without_content`] then trims is the same); any other
/// object whole.
pub fn kept_part(object: &str) -> Result<serde_json::Value, serde_json::Error> {
    use engine::traffic::litellm::{PAYLOAD_FIELDS, SPEND_LOG_COLUMNS};
    let fields: Vec<(std::borrow::Cow<'_, str>, &RawValue)> =
        serde_json::from_str::<FieldList<'_>>(object)?.0;
    let has = |key: &str| fields.iter().any(|(k, _)| k == key);
    let keys: &[&str] = if !has("startTime") {
        &[]
    } else if has("request_id") {
        &SPEND_LOG_COLUMNS
    } else if has("id") {
        &PAYLOAD_FIELDS
    } else {
        &[]
    };
    if keys.is_empty() {
        return serde_json::from_str(object);
    }
    let mut kept = serde_json::Map::new();
    // The last of a repeated key counts, as when the whole object is read.
    for (key, raw) in &fields {
        if keys.contains(&key.as_ref()) {
            kept.insert(key.to_string(), serde_json::from_str(raw.get())?);
        }
    }
    Ok(serde_json::Value::Object(kept))
}

/// An object's fields in order, their values unread.
struct FieldList<'a>(Vec<(std::borrow::Cow<'a, str>, &'a RawValue)>);

impl<'de> Deserialize<'de> for FieldList<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Fields;
        impl<'de> serde::de::Visitor<'de> for Fields {
            type Value = FieldList<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Self::Value, A::Error> {
                let mut fields = Vec::new();
                while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                    fields.push((key, map.next_value::<&'de RawValue>()?));
                }
                Ok(FieldList(fields))
            }
        }
        deserializer.deserialize_map(Fields)
    }
}

/// What one record of a batch turned out to be.
#[derive(Clone, Debug, PartialEq)]
pub struct ReadRecord {
    pub row: LiveRecordRow,
    /// Kept, but not the model's demand (a health probe, an embedding).
    pub left_out: bool,
}

/// Reads record `index` (one JSON object) with the same readers an uploaded log goes through,
/// so a record kept here is a record the day file reads.
pub fn read_record(
    index: usize,
    value: &serde_json::Value,
    now_ms: i64,
) -> Result<ReadRecord, RejectedRecord> {
    let reject = |field: Option<String>, error: String| RejectedRecord {
        index,
        field,
        error,
    };
    // A LiteLLM record is kept without its prompt, answer and key metadata (what the readers
    // read stays; about 13 KB becomes under 1 KB), and read as kept.
    let trimmed = engine::traffic::litellm::without_content(value);
    let line = serde_json::to_string(trimmed.as_ref().unwrap_or(value))
        .map_err(|e| reject(None, e.to_string()))?;
    let options = ReadOptions::new(format!("record {index}"));
    let mut reader = match GatewayReader::new(std::io::Cursor::new(line.as_bytes()), &options) {
        Ok(reader) => reader,
        Err(GatewayError::Line(e)) => return Err(reject(e.field, e.message)),
        Err(e) => return Err(reject(None, e.to_string())),
    };
    let stream = serde_json::to_value(reader.format())
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_else(|| "gateway".into());
    let (key, start_ms, left_out) = match reader.next() {
        Some(Ok(record)) => (record.request_id, record.start_ms, false),
        Some(Err(GatewayError::Line(e))) => return Err(reject(e.field, e.message)),
        Some(Err(e)) => return Err(reject(None, e.to_string())),
        None if !reader.summary().left_out.is_empty() => {
            let key = ["id", "litellm_call_id", "request_id"]
                .iter()
                .find_map(|k| value.get(*k).and_then(|v| v.as_str()))
                .filter(|id| !id.is_empty())
                .map(str::to_string)
                .unwrap_or_else(|| crate::evidence::sha256_hex(line.as_bytes()));
            let start_ms = value
                .get("startTime")
                .and_then(|v| v.as_f64())
                .and_then(engine::traffic::timestamp::unix_number_to_ms)
                .unwrap_or(now_ms);
            (key, start_ms, true)
        }
        None => return Err(reject(None, "no record in this object".into())),
    };
    if key.len() > 512 {
        return Err(reject(
            Some("request_id".into()),
            "longer than 512 characters".into(),
        ));
    }
    Ok(ReadRecord {
        row: LiveRecordRow {
            request_key: key,
            day: engine::clock::utc_date(start_ms),
            stream,
            start_ms,
            line,
        },
        left_out,
    })
}

/// Takes a posted batch for `pilot_id` from `caller`: reads every record, keeps the new ones
/// (by request id) in one transaction, and starts a roll in the background.
pub async fn ingest(
    services: &Services,
    caller: IngestCaller,
    pilot_id: i64,
    body: &[u8],
    content_encoding: Option<&str>,
) -> Result<IngestAnswer, ServiceError> {
    if caller.pilot_id != pilot_id {
        return Err(ServiceError::Unauthenticated);
    }
    let pilot = services
        .store
        .pilot(pilot_id)
        .await?
        .ok_or(ServiceError::Unauthenticated)?;
    if pilot.archived_ms.is_some() {
        return Err(ServiceError::Conflict(format!(
            "pilot #{pilot_id} is archived: it takes no new evidence"
        )));
    }
    if body.len() > MAX_BATCH_BYTES {
        return Err(ServiceError::BodyTooLarge(format!(
            "body: {} bytes; at most {} MiB in one batch",
            body.len(),
            MAX_BATCH_BYTES >> 20
        )));
    }
    let now = crate::store::now_ms();
    // Decoding and reading a batch (1.3 MB for 100 LiteLLM records) takes milliseconds: on the
    // blocking pool, so the page views an async worker serves meanwhile do not wait for it.
    let (body, encoding) = (body.to_vec(), content_encoding.map(str::to_string));
    let (mut answer, rows, left_out) =
        tokio::task::spawn_blocking(move || read_batch(&body, encoding.as_deref(), now))
            .await
            .map_err(internal)??;
    if !rows.is_empty() {
        let fresh = services
            .store
            .insert_live_records(pilot_id, Some(caller.token_id), &rows)
            .await?;
        for (new, left) in fresh.iter().zip(&left_out) {
            if *new {
                answer.accepted += 1;
                answer.left_out += u64::from(*left);
            } else {
                answer.duplicates += 1;
            }
        }
    }
    if answer.accepted > 0 {
        ROLL_WANTED.notify_one();
    }
    Ok(answer)
}

/// A batch's records read: the answer so far (its rejected records), the rows to keep and, per
/// row, how many fields were left out.
type ReadBatch = (IngestAnswer, Vec<LiveRecordRow>, Vec<bool>);

fn read_batch(
    body: &[u8],
    content_encoding: Option<&str>,
    now: i64,
) -> Result<ReadBatch, ServiceError> {
    let body = decode_body(body, content_encoding)?;
    let records = split_batch(&body)?;
    let mut answer = IngestAnswer::default();
    let mut rows = Vec::with_capacity(records.len());
    let mut left_out = Vec::with_capacity(records.len());
    for (index, record) in records.iter().enumerate() {
        match record
            .as_ref()
            .map_err(|error| RejectedRecord {
                index,
                field: None,
                error: error.clone(),
            })
            .and_then(|value| read_record(index, value, now))
        {
            Ok(read) => {
                left_out.push(read.left_out);
                rows.push(read.row);
            }
            Err(rejected) => answer.rejected.push(rejected),
        }
    }
    Ok((answer, rows, left_out))
}

// ---- rolling days into evidence ----------------------------------------------------------------

/// One roll at a time on this instance (the database orders rolls across instances).
static ROLLING: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// The file name of a day file: `live-gateway-2026-12-05-litellm.jsonl`.
pub fn day_file_name(day: &str, stream: &str) -> String {
    let short = match stream {
        "litellm_standard_payload" => "litellm",
        "litellm_spend_logs_json" => "litellm-spendlogs",
        "generic_jsonl" => "generic",
        other => other,
    };
    format!("live-gateway-{day}-{short}.jsonl")
}

/// Rolls every day with records its file does not hold yet; answers how many were rolled and
/// the number of the last grading it asked for (0: none).
pub async fn roll_pending(services: &Services) -> Result<(usize, u64), ServiceError> {
    let _one_at_a_time = ROLLING.lock().await;
    let mut rolled = 0;
    let mut changed = std::collections::BTreeSet::new();
    for day in services.store.pending_live_days(64).await? {
        if roll_day(services, &day).await? {
            rolled += 1;
            changed.insert(day.pilot_id);
        }
    }
    // Each changed pilot graded once per roll: marks become gradable as the records arrive.
    let mut last = 0;
    for pilot_id in changed {
        last = services.changes.tell_live(pilot_id);
    }
    Ok((rolled, last))
}

/// Writes a day's records as its evidence file (inserted the first time, replaced in place
/// after) with the pilot's combined demand profile, in one transaction; the file it replaces
/// is released afterwards. Answers whether anything was written.
async fn roll_day(services: &Services, day: &PendingDay) -> Result<bool, ServiceError> {
    let Some(mut records) = services.store.live_day_records(day).await? else {
        return Ok(false);
    };
    if records.received <= records.rolled && records.evidence.is_some() {
        return Ok(false);
    }
    // The token's creator, else the longest-standing active admin (as for pulled scrapes).
    let uploaded_by = match records.uploaded_by {
        Some(id) => id,
        None => services
            .store
            .first_admin_id()
            .await?
            .ok_or_else(|| internal("no account to record a live day file as uploaded by"))?,
    };
    let file_name = day_file_name(&day.day, &day.stream);
    // Joining, reading, hashing and serialising a day of records grows with the day (tens of
    // milliseconds at 40,000 records): on the blocking pool, so the requests an async worker
    // serves meanwhile do not wait for it.
    let (bytes, summary, summary_json, sha) = {
        let name = file_name.clone();
        let lines = std::mem::take(&mut records.lines);
        tokio::task::spawn_blocking(move || -> Result<_, ServiceError> {
            let mut bytes = lines.join("\n").into_bytes();
            bytes.push(b'\n');
            let summary: GatewayLogSummary =
                traffic::read_gateway_source(&name, bytes.as_slice(), true, |_| {})
                    .map_err(internal)?;
            let summary_json = serde_json::to_string(&summary).map_err(internal)?;
            let sha = crate::evidence::sha256_hex(&bytes);
            Ok((bytes, summary, summary_json, sha))
        })
        .await
        .map_err(internal)??
    };
    let uploads = services.data_dir.join("uploads");
    tokio::fs::create_dir_all(&uploads)
        .await
        .map_err(internal)?;
    let temp = uploads.join(format!("live-{:016x}.part", rand::random::<u64>()));
    tokio::fs::write(&temp, &bytes).await.map_err(internal)?;
    let profile =
        match day_profile(services, day.pilot_id, &records, &file_name, &temp, summary).await {
            Ok(profile) => profile,
            Err(error) => {
                let _ = tokio::fs::remove_file(&temp).await;
                return Err(error);
            }
        };
    let write = LiveDayWrite {
        day: &day.day,
        stream: &day.stream,
        rolled: records.received,
        evidence: NewEvidence {
            pilot_id: day.pilot_id,
            kind: EvidenceKind::GatewayLog,
            file_name: &file_name,
            sha256: &sha,
            size_bytes: bytes.len() as i64,
            summary_json: &summary_json,
            uploaded_by,
        },
        traffic_profile: profile,
    };
    services
        .blobs
        .record(&temp, &sha, crate::store::blobs::FileRow::LiveDay(write))
        .await?;
    // The file it replaced; and this one when a newer roll (another instance's) won and no row
    // names it (a release keeps any file a row names).
    if let Some((_, old)) = records.evidence
        && old != sha
    {
        services.blobs.release(&old).await;
    }
    services.blobs.release(&sha).await;
    Ok(true)
}

/// The pilot's combined profile with the day file's new content in place of its old one;
/// `None` when the day file is withdrawn (the profile leaves it out, and stays as it is).
async fn day_profile(
    services: &Services,
    pilot_id: i64,
    records: &crate::store::live::DayRecords,
    file_name: &str,
    temp: &std::path::Path,
    summary: GatewayLogSummary,
) -> Result<Option<crate::store::traffic::TrafficProfileWrite>, ServiceError> {
    let in_force =
        crate::readable::in_force(&services.store, pilot_id, Some(EvidenceKind::GatewayLog))
            .await?;
    let day_id = records.evidence.as_ref().map(|(id, _)| *id);
    if let Some(id) = day_id
        && !in_force.iter().any(|(file, _)| file.id == id)
    {
        return Ok(None);
    }
    let others = in_force
        .into_iter()
        .filter(|(file, _)| Some(file.id) != day_id)
        .collect();
    traffic::profile_over(
        services,
        others,
        Some((file_name.to_string(), temp.to_path_buf(), summary)),
    )
    .await
}

/// Wakes the roller ([`roll_on_a_timer`]) when a batch brought new records.
static ROLL_WANTED: tokio::sync::Notify = tokio::sync::Notify::const_new();

/// The roller: rolls what is pending when a batch arrives, or every `every` at the latest (a
/// failed roll is retried, another instance's records are found). Between two rolls it waits
/// at least [`ROLL_GAP`] and three times as long as the last roll took, the grading it caused
/// included (waited for at most `every`): a roll rewrites its day
/// file whole, so at 2,000 records a second a roll after every batch kept both cores busy
/// rewriting (post p99 2 s, the pilot page 28× slower); this way rolling takes at most a
/// quarter of one core, and a day file lags its feed by about three rolls' time.
pub async fn roll_on_a_timer(services: Services, every: std::time::Duration) {
    loop {
        let _ = tokio::time::timeout(every, ROLL_WANTED.notified()).await;
        let started = std::time::Instant::now();
        match roll_pending(&services).await {
            // The grading the roll asked for counts as part of it.
            Ok((_, last)) if last > 0 => services.changes.acted_on(last, every).await,
            Ok(_) => {}
            Err(error) => tracing::warn!(%error, "rolling the live gateway feed failed"),
        }
        tokio::time::sleep(ROLL_GAP.max(started.elapsed() * 3)).await;
    }
}

/// The least time between two rolls of the live feed on one instance.
pub const ROLL_GAP: std::time::Duration = std::time::Duration::from_millis(500);

// ---- the live view -----------------------------------------------------------------------------

/// The pilot's feed in numbers (two small queries; the caller has checked who may see it).
pub async fn feed(store: &crate::store::Store, pilot_id: i64) -> Result<LiveFeed, ServiceError> {
    let days = store.live_days(pilot_id).await?;
    let active_tokens = store
        .ingest_tokens(Some(pilot_id))
        .await?
        .iter()
        .filter(|t| t.revoked_ms.is_none())
        .count();
    Ok(LiveFeed {
        records: days.iter().map(|d| d.received).sum(),
        rolled: days.iter().map(|d| d.rolled).sum(),
        last_record_ms: days.iter().map(|d| d.last_received_ms).max(),
        active_tokens,
        days,
    })
}

/// The pilot as it runs: its feed and every pass mark's standing now. The caller must be able
/// to see the pilot (customers read their own organisation's, read-only).
pub async fn live_view(
    services: &Services,
    user: &SessionUser,
    pilot_id: i64,
) -> Result<LiveView, ServiceError> {
    let pilot = crate::auth::visible_pilot(&services.store, user, pilot_id).await?;
    let LiveFeed {
        records,
        rolled,
        last_record_ms,
        active_tokens,
        days,
    } = feed(&services.store, pilot_id).await?;
    // The kept overview: graded once per state of the pilot, with the moments marks became
    // gradable noted.
    let verdict = crate::overview::verdict(services, &pilot).await?;
    let now = crate::store::now_ms();
    Ok(LiveView {
        pilot_id,
        records,
        rolled,
        last_record_ms,
        last_record_age_s: last_record_ms.map(|ms| ((now - ms).max(0)) / 1000),
        now_ms: now,
        active_tokens,
        days,
        headline: verdict.headline(),
        outcome: verdict.outcome.map(|o| {
            serde_json::to_value(o)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default()
        }),
        marks: verdict
            .rows
            .iter()
            .map(|row| LiveMark {
                notation: row.notation.clone(),
                grade: serde_json::to_value(&row.verdict)
                    .ok()
                    .and_then(|v| {
                        v.get("outcome")
                            .and_then(|o| o.as_str().map(str::to_string))
                    })
                    .unwrap_or_default(),
                measured: row.measured.clone(),
                samples: row.samples,
                point: row.point.clone(),
                source: row.source.clone(),
                explanation: row.explanation.clone(),
                gradable_since_ms: row.gradable_since_ms,
            })
            .collect(),
    })
}

// ---- the rate limit ----------------------------------------------------------------------------

/// Batches a token may post per second, sustained; twice as many in a burst.
pub const BATCHES_PER_SECOND: f64 = 100.0;

/// Each token's bucket on this instance: (batches left, when last filled).
static BUCKETS: std::sync::Mutex<
    Option<std::collections::HashMap<i64, (f64, std::time::Instant)>>,
> = std::sync::Mutex::new(None);

/// Takes one batch from `token_id`'s bucket, or refuses with the seconds until one is there
/// ([`ServiceError::RateLimited`], 429 with `Retry-After`).
pub fn throttle(token_id: i64) -> Result<(), ServiceError> {
    let now = std::time::Instant::now();
    let burst = 2.0 * BATCHES_PER_SECOND;
    let mut guard = BUCKETS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let buckets = guard.get_or_insert_with(Default::default);
    if buckets.len() > 10_000 {
        buckets.retain(|_, (_, at)| now.duration_since(*at).as_secs() < 60);
    }
    let (left, at) = buckets.entry(token_id).or_insert((burst, now));
    *left = (*left + now.duration_since(*at).as_secs_f64() * BATCHES_PER_SECOND).min(burst);
    *at = now;
    if *left < 1.0 {
        return Err(ServiceError::RateLimited(1));
    }
    *left -= 1.0;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const GENERIC: &str = r#"{"request_id": "g1", "start_time": "2026-03-02T23:59:59Z", "end_time": "2026-03-03T00:00:09Z", "model": "m", "status": "ok", "prompt_tokens": 100, "completion_tokens": 50}"#;

    #[test]
    fn a_batch_is_an_array_an_object_or_json_lines() {
        let array = format!("[{GENERIC}, {GENERIC}]");
        assert_eq!(split_batch(array.as_bytes()).unwrap().len(), 2);
        let pretty = serde_json::to_string_pretty(
            &serde_json::from_str::<serde_json::Value>(GENERIC).unwrap(),
        )
        .unwrap();
        assert_eq!(split_batch(pretty.as_bytes()).unwrap().len(), 1);
        let lines = format!("{GENERIC}\n\nnot json\n[{GENERIC}]\n");
        let records = split_batch(lines.as_bytes()).unwrap();
        assert_eq!(records.len(), 3);
        assert!(
            records[1]
                .as_ref()
                .unwrap_err()
                .starts_with("line 3: not JSON")
        );
        assert!(matches!(
            split_batch(b"  \n"),
            Err(ServiceError::Invalid(_))
        ));
        assert!(matches!(
            split_batch(b"\xff\xfe"),
            Err(ServiceError::Invalid(_))
        ));
    }

    #[test]
    fn a_record_is_read_as_an_uploaded_log_reads_it() {
        let value: serde_json::Value = serde_json::from_str(GENERIC).unwrap();
        let read = read_record(0, &value, 0).unwrap();
        assert_eq!(read.row.request_key, "g1");
        assert_eq!(read.row.stream, "generic_jsonl");
        // The day is the request's start (UTC), not its end or its arrival.
        assert_eq!(read.row.day, "2026-03-02");
        assert!(!read.left_out);
        let mut bad = value.clone();
        bad["prompt_tokens"] = serde_json::json!(-1);
        let refused = read_record(4, &bad, 0).unwrap_err();
        assert_eq!(refused.index, 4);
        assert_eq!(
            refused.field.as_deref(),
            Some("prompt_tokens"),
            "{refused:?}"
        );
        let unknown = read_record(1, &serde_json::json!({"hello": "world"}), 0).unwrap_err();
        assert_eq!(unknown.index, 1);
    }

    #[test]
    fn a_litellm_record_is_built_only_as_far_as_it_is_kept() {
        // LiteLLM 1.108.7's real posts (testdata/litellm-1.108.7-generic-api): stepping over the
        // prompt and answer unbuilt keeps exactly what trimming the whole record keeps.
        let posts = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../testdata/litellm-1.108.7-generic-api/posts.json"
        ))
        .unwrap();
        let mut compared = 0;
        for line in posts.lines().filter(|l| !l.trim().is_empty()) {
            let whole: Vec<serde_json::Value> = serde_json::from_str(line).unwrap();
            let raw: Vec<&RawValue> = serde_json::from_str(line).unwrap();
            for (whole, raw) in whole.iter().zip(raw) {
                let kept = kept_part(raw.get()).unwrap();
                let trimmed = engine::traffic::litellm::without_content(whole).unwrap();
                // Only the read fields (the response still whole: the reader's trim takes its
                // finish reason), and trimmed alike.
                let fields = engine::traffic::litellm::PAYLOAD_FIELDS;
                assert!(
                    kept.as_object()
                        .unwrap()
                        .keys()
                        .all(|k| fields.contains(&k.as_str()))
                );
                assert!(kept.get("messages").is_none());
                assert_eq!(
                    engine::traffic::litellm::without_content(&kept).unwrap(),
                    trimmed
                );
                compared += 1;
            }
        }
        assert_eq!(compared, 16);
        // Any other object is kept whole; a repeated key counts once, its last value.
        let generic: serde_json::Value = serde_json::from_str(GENERIC).unwrap();
        assert_eq!(kept_part(GENERIC).unwrap(), generic);
        let twice = r#"{"id": "a", "startTime": 1, "model": "x", "model": "y", "messages": [1]}"#;
        assert_eq!(
            kept_part(twice).unwrap(),
            serde_json::json!({"id": "a", "startTime": 1, "model": "y"})
        );
        // Within an array, what is not an object is a rejected record.
        let records = split_batch(format!("[{GENERIC}, 3, \"x\"]").as_bytes()).unwrap();
        assert!(records[0].is_ok());
        assert_eq!(records[1], Err("not a JSON object".to_string()));
        assert_eq!(records[2], Err("not a JSON object".to_string()));
    }

    #[test]
    fn gzip_is_read_and_a_gzip_bomb_stops_at_the_limit() {
        use std::io::Write;
        let gzip = |bytes: &[u8]| {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(bytes).unwrap();
            e.finish().unwrap()
        };
        assert_eq!(
            decode_body(&gzip(GENERIC.as_bytes()), None).unwrap(),
            GENERIC.as_bytes()
        );
        assert_eq!(
            decode_body(GENERIC.as_bytes(), None).unwrap(),
            GENERIC.as_bytes()
        );
        let bomb = gzip(&vec![b' '; MAX_DECODED_BYTES + 1]);
        assert!(bomb.len() < MAX_BATCH_BYTES);
        assert!(matches!(
            decode_body(&bomb, Some("gzip")),
            Err(ServiceError::BodyTooLarge(_))
        ));
        assert!(matches!(
            decode_body(b"\x1f\x8b broken", None),
            Err(ServiceError::BadArgument(_))
        ));
    }

    #[test]
    fn a_token_posting_past_its_rate_waits() {
        let token = i64::MAX - 7;
        let allowed = (0..1000).filter(|_| throttle(token).is_ok()).count();
        assert!((200..=210).contains(&allowed), "{allowed}");
        assert!(matches!(throttle(token), Err(ServiceError::RateLimited(1))));
    }

    #[test]
    fn ages_read_in_the_largest_fitting_unit() {
        assert_eq!(ago(1_000, 13_000), "12 s ago");
        assert_eq!(ago(0, 600_000), "10 min ago");
        assert_eq!(ago(0, 3 * 3_600_000), "3 h ago");
        assert_eq!(ago(0, 5 * 86_400_000), "5 days ago");
        assert_eq!(ago(10_000, 0), "0 s ago", "a clock a little behind is now");
    }

    #[test]
    fn day_files_are_named_by_day_and_format() {
        assert_eq!(
            day_file_name("2026-12-05", "litellm_standard_payload"),
            "live-gateway-2026-12-05-litellm.jsonl"
        );
        assert_eq!(
            day_file_name("2026-12-05", "generic_jsonl"),
            "live-gateway-2026-12-05-generic.jsonl"
        );
    }
}
