//! Server-side traffic handling, shared by the upload route, the REST API, the demo bootstrap
//! and the `server demand` command.
use super::*;
use crate::ServiceError;
use crate::Services;
use crate::model::EvidenceKind;
use crate::store::traffic::TrafficProfileWrite;
use engine::demand::{DemandAccumulator, DemandOptions};
use engine::metrics::{VllmSnapshot, vllm_window};
use engine::traffic::{GatewayError, GatewayReader, ReadOptions};
use engine::verdict::comparability::PilotIdentity;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

/// Largest `/metrics` scrape read (real ones are tens of KiB).
pub const MAX_SCRAPE_BYTES: u64 = 16 * 1024 * 1024;

fn internal(error: impl std::fmt::Display) -> ServiceError {
    tracing::error!(%error, "traffic evidence failed");
    ServiceError::Internal
}

/// Whether `path` starts like a gateway log this server reads (the format is recognised from
/// the first record or the header; a malformed record later is the log's error, not "not a
/// gateway log").
pub fn looks_like_gateway_log(file_name: &str, path: &Path) -> bool {
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    GatewayReader::new(BufReader::new(file), &ReadOptions::new(file_name)).is_ok()
}

/// Streams a gateway log into its summary in bounded memory (the accumulator keeps requests
/// in flight, its reorder buffer and the busiest hour's arrivals, never the whole log). `on_progress` gets the bytes read so far.
pub fn read_gateway_source<R: BufRead + Send>(
    file_name: &str,
    reader: R,
    skip_bad_lines: bool,
    on_progress: impl FnMut(u64),
) -> Result<GatewayLogSummary, String> {
    let options = ReadOptions::new(file_name).skip_bad_lines(skip_bad_lines);
    let mut accumulator = DemandAccumulator::new(DemandOptions::default());
    let summary = accumulator
        .add_log(reader, &options, on_progress)
        .map_err(|e| describe_gateway_error(&e, skip_bad_lines))?;
    let profile = accumulator
        .finish()
        .map_err(|e| format!("{file_name}: {e}"))?;
    Ok(GatewayLogSummary {
        format: summary.format.label().to_string(),
        records: summary.records,
        bytes_read: summary.bytes_read,
        skip_bad_lines,
        skipped: summary.skipped,
        profile,
        notes: summary.notes,
    })
}

fn describe_gateway_error(error: &GatewayError, skip_bad_lines: bool) -> String {
    match error {
        GatewayError::Line(_) if !skip_bad_lines => format!(
            "{error}. Nothing was stored; send skip_bad_lines=true to skip malformed lines \
             and count them instead"
        ),
        _ => error.to_string(),
    }
}

/// [`read_gateway_source`] on a file.
pub fn read_gateway_file(
    file_name: &str,
    path: &Path,
    skip_bad_lines: bool,
    on_progress: impl FnMut(u64),
) -> Result<GatewayLogSummary, String> {
    let file =
        std::fs::File::open(path).map_err(|e| format!("{file_name}: could not read: {e}"))?;
    read_gateway_source(
        file_name,
        BufReader::with_capacity(1 << 16, file),
        skip_bad_lines,
        on_progress,
    )
}

/// Reads a `/metrics` scrape; `None` when the file is not vLLM's exposition (so other kinds
/// may be tried), `Err` when it is but cannot be read.
pub fn read_scrape_file(
    file_name: &str,
    path: &Path,
    scraped_at_ms: Option<i64>,
) -> Result<Option<MetricsScrapeSummary>, String> {
    let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(u64::MAX);
    if size > MAX_SCRAPE_BYTES {
        return Ok(None);
    }
    let Ok(text) = std::fs::read_to_string(path) else {
        return Ok(None);
    };
    if !text.contains("vllm:") {
        return Ok(None);
    }
    let snapshot = VllmSnapshot::parse(&text).map_err(|e| format!("{file_name}: {e}"))?;
    Ok(Some(MetricsScrapeSummary {
        scraped_at_ms: scraped_at_ms.or(snapshot.timestamp_ms),
        report: snapshot.report(),
    }))
}

/// The upload field `scraped_at`: RFC 3339 (UTC when no offset) or Unix seconds, within the
/// instants the importers accept (2000–2099, [`engine::traffic::timestamp::check_plausible`]).
pub fn parse_scraped_at(text: &str) -> Result<Option<i64>, ServiceError> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    let ms = if let Ok(seconds) = text.parse::<f64>() {
        engine::traffic::timestamp::unix_number_to_ms(seconds).ok_or_else(|| {
            ServiceError::invalid_in(
                "scraped_at: not a Unix time in seconds",
                "scraped_at: keine Unix-Zeit in Sekunden",
            )
        })?
    } else {
        engine::traffic::timestamp::parse_rfc3339(
            text,
            engine::traffic::timestamp::OffsetRule::DefaultsToUtc,
        )
        .map_err(|e| ServiceError::invalid(format!("scraped_at: {e}")))?
    };
    engine::traffic::timestamp::check_plausible(ms)
        .map(Some)
        .map_err(|why| ServiceError::invalid(format!("scraped_at: {why}")))
}

/// The upload field `skip_bad_lines`: `true`/`false` (also 1/0, yes/no, on), default false.
pub fn parse_skip_bad_lines(text: Option<&str>) -> Result<bool, ServiceError> {
    match text.map(|t| t.trim().to_ascii_lowercase()).as_deref() {
        None | Some("") | Some("false") | Some("0") | Some("no") | Some("off") => Ok(false),
        Some("true") | Some("1") | Some("yes") | Some("on") => Ok(true),
        Some(other) => Err(ServiceError::invalid_in(
            format!("skip_bad_lines: `{other}` is not true or false"),
            format!("skip_bad_lines: `{other}` ist weder true noch false"),
        )),
    }
}

/// A local path of `file`'s raw bytes (fetched from the database first on an instance that has
/// no copy, see [`crate::blobs`]).
async fn raw_path(services: &Services, file: &EvidenceFile) -> Result<PathBuf, ServiceError> {
    services.blobs.local_path(&file.sha256).await
}

/// The pilot's gateway logs in force, in upload order, as the readers stream them again: each
/// evidence row, a local path of its raw file and the `skip_bad_lines` it was uploaded with
/// (the trace export and the recommendation's busiest hour).
pub async fn gateway_sources(
    services: &Services,
    pilot_id: i64,
) -> Result<Vec<(EvidenceFile, PathBuf, bool)>, ServiceError> {
    gateway_sources_where(services, pilot_id, |_| true).await
}

/// The logs of [`gateway_sources`] that can hold a request starting in `[from_ms, to_ms)`, by
/// the span each file's own profile recorded: a live pilot's day files and a week of uploads
/// are not all read again for one hour (the busiest hour was read from every log after each
/// roll of the live feed). A file whose profile met requests out of order past its reorder
/// window may start before its recorded first start, so only its end rules it out.
pub async fn gateway_sources_spanning(
    services: &Services,
    pilot_id: i64,
    from_ms: i64,
    to_ms: i64,
) -> Result<Vec<(EvidenceFile, PathBuf, bool)>, ServiceError> {
    gateway_sources_where(services, pilot_id, |summary| {
        let profile = &summary.profile;
        let ends_before = profile.last_end.unix_ms < from_ms;
        let starts_after = profile.late_records == 0 && profile.first_start.unix_ms >= to_ms;
        !(ends_before || starts_after)
    })
    .await
}

async fn gateway_sources_where(
    services: &Services,
    pilot_id: i64,
    wanted: impl Fn(&GatewayLogSummary) -> bool,
) -> Result<Vec<(EvidenceFile, PathBuf, bool)>, ServiceError> {
    let mut logs =
        crate::readable::in_force(&services.store, pilot_id, Some(EvidenceKind::GatewayLog))
            .await?;
    logs.sort_by_key(|(file, _)| file.id);
    let mut sources = Vec::with_capacity(logs.len());
    for (file, summary) in logs {
        let summary: GatewayLogSummary = serde_json::from_str(&summary).map_err(internal)?;
        if !wanted(&summary) {
            continue;
        }
        let path = raw_path(services, &file).await?;
        sources.push((file, path, summary.skip_bad_lines));
    }
    Ok(sources)
}

/// Rebuilds the pilot's combined profile from its gateway logs and caches it (the demo;
/// uploads write it with their evidence row, see [`combined_profile`]).
pub async fn refresh_profile(services: &Services, pilot_id: i64) -> Result<(), ServiceError> {
    if let Some(write) = combined_profile(services, pilot_id, None).await? {
        services
            .store
            .put_traffic_profile(
                pilot_id,
                &write.profile_json,
                &write.evidence_ids,
                write.requests,
                write.skipped_lines,
            )
            .await?;
    }
    Ok(())
}

/// The pilot's combined profile over its stored gateway logs and `added` (a log being
/// stored now: its name, kept raw file and summary; its id is not known yet, so it is not
/// among the write's evidence ids). One log: its own profile. Several: their kept raw files
/// streamed again through one accumulator. `None` when there is no log at all.
pub async fn combined_profile(
    services: &Services,
    pilot_id: i64,
    added: Option<(String, PathBuf, GatewayLogSummary)>,
) -> Result<Option<TrafficProfileWrite>, ServiceError> {
    let stored =
        crate::readable::in_force(&services.store, pilot_id, Some(EvidenceKind::GatewayLog))
            .await?;
    profile_over(services, stored, added).await
}

/// The combined profile over `stored` gateway logs (evidence row and summary JSON each) and
/// `added` (see [`combined_profile`]); a withdrawal or restoration passes the logs in force
/// afterwards.
pub async fn profile_over(
    services: &Services,
    stored: Vec<(EvidenceFile, String)>,
    added: Option<(String, PathBuf, GatewayLogSummary)>,
) -> Result<Option<TrafficProfileWrite>, ServiceError> {
    let mut stored = stored
        .into_iter()
        .map(|(file, summary)| {
            let summary: GatewayLogSummary = serde_json::from_str(&summary).map_err(internal)?;
            Ok((file, summary))
        })
        .collect::<Result<Vec<_>, ServiceError>>()?;
    stored.sort_by_key(|(file, _)| file.id);
    let evidence_ids: Vec<i64> = stored.iter().map(|(f, _)| f.id).collect();
    let mut sources: Vec<(String, PathBuf, GatewayLogSummary)> = Vec::new();
    for (f, s) in stored {
        sources.push((f.file_name.clone(), raw_path(services, &f).await?, s));
    }
    sources.extend(added);
    let skipped: u64 = sources.iter().map(|(_, _, s)| s.skipped.count).sum();
    let (profile, requests) = match sources.len() {
        0 => return Ok(None),
        1 => {
            let (_, _, summary) = sources.remove(0);
            (summary.profile, summary.records)
        }
        _ => {
            let sources: Vec<(String, PathBuf, bool)> = sources
                .into_iter()
                .map(|(name, path, s)| (name, path, s.skip_bad_lines))
                .collect();
            tokio::task::spawn_blocking(move || combine(&sources))
                .await
                .map_err(internal)?
                .map_err(internal)?
        }
    };
    Ok(Some(TrafficProfileWrite {
        profile_json: serde_json::to_string(&profile).map_err(internal)?,
        evidence_ids,
        requests: requests as i64,
        skipped_lines: skipped as i64,
    }))
}

/// One profile over several logs: (file name, path, skip_bad_lines) each.
pub fn combine(sources: &[(String, PathBuf, bool)]) -> Result<(DemandProfile, u64), String> {
    let mut accumulator = DemandAccumulator::new(DemandOptions::default());
    for (name, path, skip) in sources {
        let file = std::fs::File::open(path).map_err(|e| format!("{name}: {e}"))?;
        let options = ReadOptions::new(name.clone()).skip_bad_lines(*skip);
        accumulator
            .add_log(BufReader::with_capacity(1 << 16, file), &options, |_| {})
            .map_err(|e| e.to_string())?;
    }
    let requests = accumulator.requests();
    let profile = accumulator.finish().map_err(|e| e.to_string())?;
    Ok((profile, requests))
}

/// The pilot's identity for comparability checks: its model and GPU.
pub fn identity(pilot: &crate::model::Pilot) -> PilotIdentity {
    PilotIdentity {
        model: pilot.model.clone(),
        gpu: pilot.gpu_type.clone(),
    }
}

/// A `/metrics` scrape's served model names against the pilot's.
pub fn scrape_check(
    identity: &PilotIdentity,
    file_name: &str,
    summary: &MetricsScrapeSummary,
) -> FileCheck {
    engine::verdict::comparability::check_file(
        identity,
        engine::verdict::comparability::FileKind::Scrape,
        file_name,
        &summary.report.model_names,
        None,
        false,
    )
}

/// A gateway log's models (as clients asked for them) against the pilot's; `file_name` is
/// empty for the pilot's logs combined into one profile.
pub fn gateway_check(
    identity: &PilotIdentity,
    file_name: &str,
    profile: &DemandProfile,
) -> FileCheck {
    let models: Vec<String> = profile.models.iter().map(|m| m.model.clone()).collect();
    engine::verdict::comparability::check_file(
        identity,
        engine::verdict::comparability::FileKind::GatewayLog,
        file_name,
        &models,
        None,
        false,
    )
}

/// The pilot's scrapes with their checks, in the order they were taken.
pub async fn checked_scrapes(
    services: &Services,
    pilot_id: i64,
    identity: &PilotIdentity,
) -> Result<Vec<ScrapeFile>, ServiceError> {
    let mut scrapes = Vec::new();
    for (evidence, summary) in
        crate::readable::in_force(&services.store, pilot_id, Some(EvidenceKind::MetricsScrape))
            .await?
    {
        let summary: MetricsScrapeSummary = serde_json::from_str(&summary).map_err(internal)?;
        let check = scrape_check(identity, &evidence.file_name, &summary);
        scrapes.push(ScrapeFile {
            evidence,
            summary,
            check,
        });
    }
    scrapes.sort_by_key(|s| (s.at_ms(), s.evidence.id));
    Ok(scrapes)
}

/// Preemption alarms of single scrapes, the lasting-queue alarm over consecutive scrapes
/// and the window's alarms, from comparable scrapes only; single-scrape queues as notes.
pub fn limit_signals(scrapes: &[ScrapeFile], window: Option<&VllmWindow>) -> LimitSignals {
    let comparable: Vec<&ScrapeFile> = scrapes.iter().filter(|s| s.check.is_comparable()).collect();
    let mut alarms: Vec<LimitAlarm> = comparable
        .iter()
        .flat_map(|s| s.summary.report.alarms.iter().cloned())
        .filter(|a| a.kind == engine::metrics::AlarmKind::Preemptions)
        .collect();
    let samples: Vec<engine::metrics::vllm::WaitingSample> = comparable
        .iter()
        .map(|s| engine::metrics::vllm::WaitingSample {
            label: format!("#{} {}", s.evidence.id, s.evidence.file_name),
            at_ms: Some(s.at_ms()),
            requests_waiting: s.summary.report.gauges.requests_waiting,
        })
        .collect();
    let (queue, mut waiting) = engine::metrics::vllm::lasting_queue(&samples);
    alarms.extend(queue);
    if let Some(window) = window {
        for alarm in &window.alarms {
            if !alarms.iter().any(|a| a.kind == alarm.kind) {
                alarms.push(alarm.clone());
            }
        }
    }
    if alarms
        .iter()
        .any(|a| a.kind == engine::metrics::AlarmKind::WaitingQueue)
    {
        waiting.clear();
    }
    let notes = waiting
        .iter()
        .map(|n| n.text_in(engine::locale::Lang::En))
        .collect();
    LimitSignals {
        alarms,
        notes,
        waiting,
    }
}

/// Little's law on the log, and vLLM's mean in flight between the comparable scrapes that
/// span the busiest hour (the latest taken at or before its start, the earliest at or after
/// its end) against the log over the same window.
pub async fn in_flight_cross_check(
    services: &Services,
    pilot_id: i64,
    profile: &DemandProfile,
    scrapes: &[ScrapeFile],
) -> Result<InFlightCrossCheck, ServiceError> {
    use engine::locale::Lang;
    use engine::verdict::cross_check::{
        busiest_hour_ms, log_in_flight_check, server_check_gap_in, server_in_flight_check,
    };
    let mut out = InFlightCrossCheck {
        checks: vec![log_in_flight_check(profile)],
        ..Default::default()
    };
    let timed: Vec<&ScrapeFile> = scrapes
        .iter()
        .filter(|s| s.check.is_comparable() && s.summary.scraped_at_ms.is_some())
        .collect();
    if scrapes.iter().all(|s| !s.check.is_comparable()) {
        return Ok(out);
    }
    let (from, to) = busiest_hour_ms(profile);
    let before = timed.iter().rev().find(|s| s.at_ms() <= from);
    let after = timed.iter().find(|s| s.at_ms() >= to);
    let (Some(before), Some(after)) = (before, after) else {
        let first = timed.first().map(|s| s.at_ms());
        let last = timed.last().map(|s| s.at_ms());
        out.gap = server_check_gap_in(profile, first, last, Lang::En);
        out.gap_de = server_check_gap_in(profile, first, last, Lang::De);
        return Ok(out);
    };
    let window = window(
        services,
        pilot_id,
        &before.evidence.id.to_string(),
        &after.evidence.id.to_string(),
        "",
    )
    .await;
    match window {
        Ok(Some(view)) => match server_in_flight_check(
            profile,
            view.window.mean_in_flight,
            Some(before.at_ms()),
            Some(after.at_ms()),
        ) {
            Some(check) => out.checks.push(check),
            None => {
                out.gap = Some(
                    "vLLM's mean in flight could not be computed between the scrapes that span the busiest hour (no e2e latency histogram, or no time between them)."
                        .into(),
                )
            }
        },
        Ok(None) => {}
        Err(e) => out.gap = Some(format!("The scrapes spanning the busiest hour could not be compared: {e}")),
    }
    Ok(out)
}

/// Scrapes the traffic page lists and offers for a window: a day of hourly pulls. A pilot
/// pulled every few minutes for weeks has thousands; the evidence page lists every one.
pub const SCRAPES_SHOWN: usize = 24;

/// The page's data.
pub async fn overview(
    services: &Services,
    pilot: &crate::model::Pilot,
) -> Result<TrafficData, ServiceError> {
    let pilot_id = pilot.id;
    let pilot_name = pilot.name.clone();
    let identity = identity(pilot);
    let store = &services.store;
    let stored = store.traffic_profile(pilot_id).await?;
    let (profile, skipped_lines): (Option<DemandProfile>, u64) = match stored {
        Some(stored) => (
            crate::readable::profile(pilot_id, &stored.profile_json),
            stored.skipped_lines as u64,
        ),
        None => (None, 0),
    };
    let mut files = Vec::new();
    for (evidence, summary) in
        crate::readable::in_force(store, pilot_id, Some(EvidenceKind::GatewayLog)).await?
    {
        let summary: GatewayLogSummary = serde_json::from_str(&summary).map_err(internal)?;
        files.push(GatewayFile {
            evidence,
            format: summary.format,
            records: summary.records,
            skipped_lines: summary.skipped.count,
            notes: summary.notes,
        });
    }
    let mut scrapes = checked_scrapes(services, pilot_id, &identity).await?;
    let plan_demand = store
        .plan_in_force(pilot_id)
        .await?
        .map(|plan| plan.content.demand);
    let (gateway_check, in_flight) = match &profile {
        Some(profile) => (
            gateway_check(&identity, "", profile),
            in_flight_cross_check(services, pilot_id, profile, &scrapes).await?,
        ),
        None => (FileCheck::default(), InFlightCrossCheck::default()),
    };
    let latest_window = window(services, pilot_id, "", "", "").await.ok().flatten();
    let comparable_window = latest_window.filter(|w| {
        [w.before.id, w.after.id].iter().all(|id| {
            scrapes
                .iter()
                .any(|s| s.evidence.id == *id && s.check.is_comparable())
        })
    });
    let limits = limit_signals(&scrapes, comparable_window.as_ref().map(|w| &w.window));
    let scrapes_total = scrapes.len();
    let scrapes = scrapes.split_off(scrapes_total.saturating_sub(SCRAPES_SHOWN));
    Ok(TrafficData {
        pilot_id,
        pilot_name,
        profile,
        skipped_lines,
        files,
        scrapes,
        scrapes_total,
        plan_demand,
        gateway_check,
        in_flight,
        limits,
    })
}

fn parse_id(name: &str, text: &str) -> Result<Option<i64>, ServiceError> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    text.parse().map(Some).map_err(|_| {
        ServiceError::invalid_in(
            format!("{name}: `{text}` is not an evidence id"),
            format!("{name}: `{text}` ist keine Nachweisnummer"),
        )
    })
}

/// The window between two of the pilot's scrapes (see [`super::metrics_window`]).
pub async fn window(
    services: &Services,
    pilot_id: i64,
    before: &str,
    after: &str,
    elapsed_s: &str,
) -> Result<Option<MetricsWindowView>, ServiceError> {
    let before_id = parse_id("before", before)?;
    let after_id = parse_id("after", after)?;
    let elapsed = match elapsed_s.trim() {
        "" => None,
        text => Some(
            text.parse::<f64>()
                .ok()
                .filter(|s| s.is_finite() && *s > 0.0)
                .ok_or_else(|| {
                    ServiceError::invalid_in(
                        format!("elapsed_s: `{text}` is not a positive number of seconds"),
                        format!("elapsed_s: `{text}` ist keine positive Zahl von Sekunden"),
                    )
                })?,
        ),
    };
    let mut scrapes =
        crate::readable::in_force(&services.store, pilot_id, Some(EvidenceKind::MetricsScrape))
            .await?;
    scrapes.reverse(); // oldest first
    let find = |id: i64, name: &str| {
        scrapes
            .iter()
            .find(|(f, _)| f.id == id)
            .cloned()
            .ok_or_else(|| {
                ServiceError::invalid_in(
                    format!("{name}: no scrape #{id} on this pilot"),
                    format!("{name}: kein Abzug #{id} auf diesem Piloten"),
                )
            })
    };
    let (first, second) = match (before_id, after_id) {
        (Some(b), Some(a)) => (find(b, "before")?, find(a, "after")?),
        (None, None) if scrapes.len() >= 2 => (
            scrapes[scrapes.len() - 2].clone(),
            scrapes[scrapes.len() - 1].clone(),
        ),
        (None, None) => return Ok(None),
        _ => {
            return Err(ServiceError::invalid_in(
                "before, after: choose both scrapes",
                "before, after: Wählen Sie beide Abzüge",
            ));
        }
    };
    if first.0.id == second.0.id {
        return Err(ServiceError::invalid_in(
            "after: choose two different scrapes",
            "after: Wählen Sie zwei verschiedene Abzüge",
        ));
    }
    let times = |summary: &str| -> Result<Option<i64>, ServiceError> {
        let s: MetricsScrapeSummary = serde_json::from_str(summary).map_err(internal)?;
        Ok(s.scraped_at_ms)
    };
    let elapsed = match (elapsed, times(&first.1)?, times(&second.1)?) {
        (Some(e), _, _) => Some(e),
        (None, Some(a), Some(b)) if b > a => Some((b - a) as f64 / 1000.0),
        _ => None,
    };
    let read = |file: &EvidenceFile, path: PathBuf| -> Result<VllmSnapshot, ServiceError> {
        let text = std::fs::read_to_string(path).map_err(internal)?;
        VllmSnapshot::parse(&text)
            .map_err(|e| ServiceError::invalid(format!("{}: {e}", file.file_name)))
    };
    let (first_path, second_path) = (
        raw_path(services, &first.0).await?,
        raw_path(services, &second.0).await?,
    );
    let window = vllm_window(
        &read(&first.0, first_path)?,
        &read(&second.0, second_path)?,
        elapsed,
    )
    .map_err(|e| {
        ServiceError::invalid(format!(
            "{} → {}: {e}",
            first.0.file_name, second.0.file_name
        ))
    })?;
    Ok(Some(MetricsWindowView {
        before: first.0,
        after: second.0,
        window,
    }))
}

/// The demo pilot's gateway log: a synthetic working week of 40 users
/// (`SyntheticConfig::pilot_week`), stored as gateway-log evidence exactly as an upload is.
pub async fn seed_demo_traffic(
    services: &Services,
    pilot_id: i64,
    uploaded_by: i64,
) -> Result<(), ServiceError> {
    let (bytes, summary) = tokio::task::spawn_blocking(|| {
        let config = engine::traffic::SyntheticConfig::pilot_week(20_260_302);
        let mut bytes = Vec::new();
        engine::traffic::write_synthetic_jsonl(&config, &mut bytes).map_err(internal)?;
        let summary =
            read_gateway_source("demo-gateway-week.jsonl", bytes.as_slice(), false, |_| {})
                .map_err(internal)?;
        Ok::<_, ServiceError>((bytes, summary))
    })
    .await
    .map_err(internal)??;
    let json = serde_json::to_string(&summary).map_err(internal)?;
    crate::evidence::keep_bytes(
        services,
        crate::evidence::EvidenceBytes {
            pilot_id,
            kind: EvidenceKind::GatewayLog,
            file_name: "demo-gateway-week.jsonl",
            bytes: &bytes,
            summary_json: &json,
            uploaded_by,
        },
    )
    .await?;
    refresh_profile(services, pilot_id).await
}

/// Reads the kept gateway logs (name, path, skip_bad_lines) again, record by record: the
/// busiest hour of the capacity plan and the trace export both read them so. Blocking; the
/// error names the log.
pub fn read_logs_again(
    sources: &[(String, PathBuf, bool)],
    mut each: impl FnMut(engine::traffic::GatewayRecord),
) -> Result<(), String> {
    for (name, path, skip) in sources {
        let file = std::fs::File::open(path)
            .map_err(|e| format!("The gateway log {name} could not be read again ({e})"))?;
        engine::traffic::read_gateway_log(
            BufReader::with_capacity(1 << 16, file),
            &ReadOptions::new(name.clone()).skip_bad_lines(*skip),
            &mut each,
            |_| {},
        )
        .map_err(|e| format!("{name}: {e}"))?;
    }
    Ok(())
}
