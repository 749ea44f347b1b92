//! Reader tests: every format on small logs written here from the documented schemas, the real
//! LiteLLM payload fixture, and malformed records (the error names the line and field; nothing
//! is returned unless bad lines are skipped).

use super::*;
use std::io::Cursor;
use std::path::PathBuf;

fn fixture(rel: &str) -> Vec<u8> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testdata");
    let path = dir.join(rel);
    std::fs::read(&path).unwrap_or_else(|e| panic!("fixture {} unreadable: {e}", path.display()))
}

fn read_all(name: &str, bytes: &[u8]) -> Result<(Vec<GatewayRecord>, ImportSummary), GatewayError> {
    let mut records = Vec::new();
    let summary = read_gateway_log(
        Cursor::new(bytes),
        &ReadOptions::new(name),
        |r| records.push(r),
        |_| {},
    )?;
    Ok((records, summary))
}

fn read_skipping(name: &str, bytes: &[u8]) -> (Vec<GatewayRecord>, ImportSummary) {
    let mut records = Vec::new();
    let options = ReadOptions::new(name).skip_bad_lines(true);
    let summary = read_gateway_log(Cursor::new(bytes), &options, |r| records.push(r), |_| {})
        .unwrap_or_else(|e| panic!("{e}"));
    (records, summary)
}

const GENERIC_JSONL: &str = r#"{"request_id":"a","start_time":"2026-03-02T09:00:00Z","first_token_time":"2026-03-02T09:00:00.250Z","end_time":"2026-03-02T09:00:02.250Z","model":"qwen","prompt_tokens":100,"completion_tokens":101,"status":"ok","finish_reason":"stop"}
{"request_id":"b","start_time":1772442001.5,"first_token_time":null,"end_time":1772442003,"model":"qwen","prompt_tokens":50,"completion_tokens":1024,"status":"ok","finish_reason":"length","extra":{"ignored":[1,2]}}
{"request_id":"c","start_time":"2026-03-02T10:00:00+01:00","end_time":"2026-03-02T10:00:00.300+01:00","model":"llama","prompt_tokens":null,"completion_tokens":null,"status":"error"}
"#;

const GENERIC_CSV: &str = "request_id,start_time,first_token_time,end_time,model,prompt_tokens,completion_tokens,status,finish_reason
a,2026-03-02T09:00:00Z,2026-03-02T09:00:00.250Z,2026-03-02T09:00:02.250Z,qwen,100,101,ok,stop
b,1772442001.5,,1772442003,qwen,50,1024,ok,length
c,2026-03-02T10:00:00+01:00,,2026-03-02T10:00:00.300+01:00,llama,,,error,
";

fn expected_generic() -> Vec<GatewayRecord> {
    let nine = 1_772_442_000_000; // 2026-03-02T09:00:00Z
    vec![
        GatewayRecord {
            request_id: "a".into(),
            start_ms: nine,
            first_token_ms: Some(nine + 250),
            end_ms: nine + 2_250,
            model: "qwen".into(),
            prompt_tokens: 100,
            completion_tokens: 101,
            status: RequestStatus::Ok,
            finish_reason: Some("stop".into()),
            detail: crate::traffic::LogDetail::default(),
        },
        GatewayRecord {
            request_id: "b".into(),
            start_ms: nine + 1_500,
            first_token_ms: None,
            end_ms: nine + 3_000,
            model: "qwen".into(),
            prompt_tokens: 50,
            completion_tokens: 1_024,
            status: RequestStatus::Ok,
            finish_reason: Some("length".into()),
            detail: crate::traffic::LogDetail::default(),
        },
        GatewayRecord {
            request_id: "c".into(),
            start_ms: nine,
            first_token_ms: None,
            end_ms: nine + 300,
            model: "llama".into(),
            prompt_tokens: 0,
            completion_tokens: 0,
            status: RequestStatus::Error,
            finish_reason: None,
            detail: crate::traffic::LogDetail::default(),
        },
    ]
}

#[test]
fn reads_generic_json_lines() {
    let (records, summary) = read_all("gateway.jsonl", GENERIC_JSONL.as_bytes()).unwrap();
    assert_eq!(summary.format, GatewayFormat::GenericJsonl);
    assert_eq!(records, expected_generic());
    assert_eq!(summary.records, 3);
    assert_eq!(summary.bytes_read, GENERIC_JSONL.len() as u64);
}

#[test]
fn reads_generic_csv_with_the_same_columns() {
    let (records, summary) = read_all("gateway.csv", GENERIC_CSV.as_bytes()).unwrap();
    assert_eq!(summary.format, GatewayFormat::GenericCsv);
    assert_eq!(records, expected_generic());
    assert_eq!(summary.bytes_read, GENERIC_CSV.len() as u64);
}

#[test]
fn reads_the_real_litellm_standard_logging_payload() {
    let bytes = fixture("litellm/standard_logging_payload.from_gcs_test.json");
    let (records, summary) = read_all("payload.json", &bytes).unwrap();
    assert_eq!(summary.format, GatewayFormat::LitellmStandardPayload);
    assert_eq!(
        records,
        vec![GatewayRecord {
            request_id: "chatcmpl-9870a859d6df402795f75dc5fca5b2e0".into(),
            start_ms: 1_739_235_379_683, // startTime 1739235379.683053
            // completionStartTime 1739235379.84533 = endTime although stream: true: LiteLLM
            // logged no first chunk, so the first-token time is unknown.
            first_token_ms: None,
            end_ms: 1_739_235_379_845, // endTime 1739235379.84533
            model: "fake-openai-endpoint".into(), // model_group wins over model
            prompt_tokens: 9,
            completion_tokens: 12,
            status: RequestStatus::Ok,
            finish_reason: Some("stop".into()),
            detail: crate::traffic::LogDetail {
                e2e_us: Some(162_277),
                ttft_us: None,
                first_token_unknown: true,
            },
        }]
    );
    assert_eq!(records[0].e2e_ms(), 162);
    // The payload's own response_time 0.1622769832611084 s, to the microsecond.
    let e2e = records[0].e2e_ms_exact();
    assert!((e2e - 0.1622769832611084 * 1000.0).abs() < 0.001, "{e2e}");
    assert_eq!(records[0].ttft_ms(), None, "not the whole request");
    assert_eq!(records[0].tpot_ms(), None, "not 0 ms");
    assert_eq!(
        summary.notes,
        vec![
            "1 of 1 requests are streamed calls whose completionStartTime equals endTime: their first-token time is unknown, so they give no TTFT and no TPOT (not the whole request, not 0 ms)"
                .to_string()
        ]
    );
}

/// With a first chunk before the end, TTFT and TPOT come from the float seconds themselves, not
/// from instants rounded to the millisecond.
#[test]
fn litellm_latencies_keep_the_payloads_sub_millisecond_precision() {
    let mut value: serde_json::Value = serde_json::from_slice(&fixture(
        "litellm/standard_logging_payload.from_gcs_test.json",
    ))
    .unwrap();
    value["completionStartTime"] = serde_json::json!(1739235379.70125);
    let (records, summary) = read_all("payload.json", value.to_string().as_bytes()).unwrap();
    let r = &records[0];
    assert!(summary.notes.is_empty(), "{:?}", summary.notes);
    assert_eq!(r.first_token_ms, Some(1_739_235_379_701));
    assert_eq!(r.detail.ttft_us, Some(18_197), "0.70125 − 0.683053 s");
    assert_eq!(r.detail.e2e_us, Some(162_277));
    assert_eq!(r.ttft_ms(), Some(18));
    let ttft = r.ttft_ms_exact().unwrap();
    assert!((ttft - 18.197).abs() < 1e-9, "{ttft}");
    // (162.277 − 18.197) ms over 11 tokens after the first; whole-ms instants would give
    // (845 − 701) ÷ 11 = 13.0909.
    let tpot = r.tpot_ms().unwrap();
    assert!((tpot - 144.080 / 11.0).abs() < 1e-9, "{tpot}");
    // Stored records read back with their detail.
    let json = serde_json::to_string(r).unwrap();
    assert_eq!(&serde_json::from_str::<GatewayRecord>(&json).unwrap(), r);
}

#[test]
fn reads_litellm_payloads_one_per_line() {
    let value: serde_json::Value = serde_json::from_slice(&fixture(
        "litellm/standard_logging_payload.from_gcs_test.json",
    ))
    .unwrap();
    let mut failed = value.clone();
    failed["id"] = "chatcmpl-2".into();
    failed["status"] = "failure".into();
    failed["stream"] = false.into();
    failed["completion_tokens"] = 0.into();
    failed["response"] = serde_json::Value::Null;
    failed["error_information"]["error_class"] = "Timeout".into();
    failed["error_information"]["error_code"] = "408".into();
    let text = format!("{value}\n{failed}\n");
    let (records, summary) = read_all("callbacks.jsonl", text.as_bytes()).unwrap();
    assert_eq!(summary.format, GatewayFormat::LitellmStandardPayload);
    assert_eq!(records.len(), 2);
    assert_eq!(records[1].status, RequestStatus::Timeout);
    assert_eq!(records[1].first_token_ms, None);
    assert_eq!(records[1].finish_reason, None);
}

#[test]
fn reads_litellm_spend_logs_as_a_json_array() {
    let json = r#"[
  {
    "request_id": "chatcmpl-1",
    "call_type": "acompletion",
    "api_key": "88dc28d0f030c55ed4ab77ed8faf098196cb1c05df778539800c9f1243fe6b4b",
    "spend": 0.00012,
    "total_tokens": 350,
    "prompt_tokens": 300,
    "completion_tokens": 50,
    "startTime": "2025-02-11T00:56:19.683000Z",
    "endTime": "2025-02-11T00:56:21.183000Z",
    "completionStartTime": "2025-02-11T00:56:19.900000Z",
    "model": "hosted_vllm/qwen2.5-7b",
    "model_group": "qwen",
    "response": {"choices": [{"finish_reason": "length", "message": {"content": "a } tricky \" answer"}}]},
    "status": "success"
  },
  {
    "request_id": "chatcmpl-2",
    "prompt_tokens": 10,
    "completion_tokens": 0,
    "startTime": "2025-02-11T00:57:00.000000Z",
    "endTime": "2025-02-11T00:57:00.500000Z",
    "completionStartTime": "2025-02-11T00:57:00.500000Z",
    "model": "hosted_vllm/qwen2.5-7b",
    "model_group": null,
    "status": "failure"
  }
]
"#;
    let (records, summary) = read_all("spend_logs.json", json.as_bytes()).unwrap();
    assert_eq!(summary.format, GatewayFormat::LitellmSpendLogsJson);
    assert_eq!(records.len(), 2);
    assert_eq!(records[0].model, "qwen");
    assert_eq!(records[0].ttft_ms(), Some(217));
    assert_eq!(records[0].e2e_ms(), 1_500);
    assert_eq!(records[0].finish_reason.as_deref(), Some("length"));
    assert_eq!(records[1].model, "hosted_vllm/qwen2.5-7b");
    assert_eq!(records[1].status, RequestStatus::Error);
    // completionStartTime = endTime and no `stream` field: not a time to first token
    assert_eq!(records[1].first_token_ms, None);
}

#[test]
fn reads_litellm_spend_logs_csv_dumps() {
    let csv = "\u{feff}\"request_id\",\"call_type\",\"startTime\",\"endTime\",\"completionStartTime\",\"model\",\"model_group\",\"prompt_tokens\",\"completion_tokens\",\"status\",\"response\"
chatcmpl-1,acompletion,2025-02-11 00:56:19.683,2025-02-11 00:56:21.183,2025-02-11 00:56:19.9,hosted_vllm/qwen,qwen,300,50,success,\"{\"\"choices\"\": [
{\"\"finish_reason\"\": \"\"stop\"\", \"\"message\"\": {\"\"content\"\": \"\"line one\\\\nline two, with a comma\"\"}}]}\"
chatcmpl-2,acompletion,2025-02-11 00:57:00.000+00,2025-02-11 00:57:00.500+00,NULL,hosted_vllm/qwen,,10,0,failure,
";
    let (records, summary) = read_all("spend_logs.csv", csv.as_bytes()).unwrap();
    assert_eq!(summary.format, GatewayFormat::LitellmSpendLogsCsv);
    assert_eq!(records.len(), 2);
    assert_eq!(records[0].start_ms, 1_739_235_379_683);
    assert_eq!(records[0].ttft_ms(), Some(217));
    assert_eq!(records[0].finish_reason.as_deref(), Some("stop"));
    assert_eq!(records[1].model, "hosted_vllm/qwen");
    assert_eq!(records[1].status, RequestStatus::Error);
    assert_eq!(records[1].first_token_ms, None);
}

fn with_bad_line_3(good: &str) -> String {
    let mut lines: Vec<String> = good.lines().map(str::to_owned).collect();
    lines.insert(
        2,
        r#"{"request_id":"bad","start_time":"2026-03-02T09:00:00Z","end_time":"soon","model":"qwen","prompt_tokens":1,"completion_tokens":1,"status":"ok"}"#.into(),
    );
    lines.join("\n") + "\n"
}

#[test]
fn a_bad_line_fails_the_import_naming_line_and_field() {
    let text = with_bad_line_3(GENERIC_JSONL);
    let error = read_all("gateway.jsonl", text.as_bytes()).unwrap_err();
    assert_eq!(
        error.to_string(),
        "gateway.jsonl line 3: field \"end_time\": expected an RFC 3339 date-time or Unix \
         seconds, found \"soon\""
    );
    let GatewayError::Line(line) = error else {
        panic!("expected a line error")
    };
    assert_eq!((line.line, line.field.as_deref()), (3, Some("end_time")));
    // the iterator stops at the error too
    let reader = GatewayReader::new(Cursor::new(text.as_bytes()), &ReadOptions::new("g")).unwrap();
    let items: Vec<_> = reader.collect();
    assert_eq!(items.len(), 3);
    assert!(items[2].is_err());
}

#[test]
fn skip_bad_lines_skips_and_counts_them() {
    let mut text = with_bad_line_3(GENERIC_JSONL);
    text.push_str("{\"request_id\":\"torn\",\"start_time\":\"2026-03-02T09:00:00Z\",\"end_ti\n");
    text.push_str("not json at all\n\n");
    text.push_str(r#"{"request_id":"d","start_time":"2026-03-02T09:00:00Z","first_token_time":"2026-03-02T08:59:59Z","end_time":"2026-03-02T09:00:01Z","model":"qwen","prompt_tokens":1,"completion_tokens":1,"status":"ok"}"#);
    text.push('\n');
    text.push_str(r#"{"request_id":"e","start_time":"2026-03-02T09:00:00Z","end_time":"2026-03-02T09:00:01Z","model":"qwen","prompt_tokens":1,"completion_tokens":1,"status":"fine"}"#);
    let (records, summary) = read_skipping("gateway.jsonl", text.as_bytes());
    assert_eq!(records, expected_generic());
    assert_eq!(summary.skipped.count, 5);
    assert_eq!(summary.skipped.first_lines(), vec![3, 5, 6, 8, 9]);
    let fields: Vec<Option<&str>> = summary
        .skipped
        .first
        .iter()
        .map(|e| e.field.as_deref())
        .collect();
    assert_eq!(
        fields,
        vec![
            Some("end_time"),
            None,
            None,
            Some("first_token_time"),
            Some("status")
        ]
    );
    assert!(
        summary.skipped.first[1]
            .message
            .starts_with("invalid JSON: EOF while parsing")
    );
    assert_eq!(
        summary.skipped.to_string(),
        "skipped 5 malformed records (lines 3, 5, 6, 8, 9)"
    );
}

#[test]
fn a_missing_token_count_of_a_successful_request_is_an_error() {
    let text = r#"{"request_id":"a","start_time":1772442000,"end_time":1772442001,"model":"m","prompt_tokens":3,"status":"ok"}"#;
    let error = read_all("g.jsonl", text.as_bytes()).unwrap_err();
    assert_eq!(
        error.to_string(),
        "g.jsonl line 1: field \"completion_tokens\": missing (required when status is ok)"
    );
}

#[test]
fn csv_errors_name_line_and_field() {
    let mut text = GENERIC_CSV.to_owned();
    text.push_str("d,2026-03-02T09:00:00Z,,2026-03-02T08:00:00Z,qwen,1,1,ok,stop\n");
    text.push_str("e,2026-03-02T09:00:00Z,,2026-03-02T09:00:01Z,qwen,1\n");
    text.push_str("f,2026-03-02T09:00:00Z,,2026-03-02T09:00:01Z,qwen,1.5,1,ok,stop\n");
    let error = read_all("g.csv", text.as_bytes()).unwrap_err();
    assert_eq!(
        error.to_string(),
        "g.csv line 5: field \"end_time\": 3600000 ms before start_time"
    );
    let (records, summary) = read_skipping("g.csv", text.as_bytes());
    assert_eq!(records.len(), 3);
    assert_eq!(summary.skipped.first_lines(), vec![5, 6, 7]);
    assert_eq!(
        summary.skipped.first[1].message,
        "expected 9 columns like the header, found 6"
    );
    assert_eq!(
        summary.skipped.first[2].field.as_deref(),
        Some("prompt_tokens")
    );
}

#[test]
fn multi_line_json_errors_point_at_the_record_and_line() {
    let text = "[\n  {\n    \"request_id\": \"a\",\n    \"start_time\": 1772442001,\n    \"end_time\": 1772442002,\n    \"model\": \"m\",\n    \"prompt_tokens\": 1,\n    \"completion_tokens\": 1,\n    \"status\": \"ok\"\n  },\n  {\n    \"request_id\": \"b\",\n    \"start_time\": 1772442001,\n    \"end_time\": 1772442000,\n    \"model\": \"m\",\n    \"status\": \"error\"\n  },\n  {\n    \"request_id\": \"c\"\n";
    let error = read_all("g.json", text.as_bytes()).unwrap_err();
    assert_eq!(
        error.to_string(),
        "g.json line 11: field \"end_time\": 1000 ms before start_time"
    );
    let (records, summary) = read_skipping("g.json", text.as_bytes());
    assert_eq!(records.len(), 1);
    assert_eq!(summary.skipped.first_lines(), vec![11, 18]);
    assert_eq!(
        summary.skipped.first[1].message,
        "the file ends mid-record (cut off?): the JSON object is not closed before the end of \
         the file"
    );
}

#[test]
fn recognises_nothing_it_does_not_know() {
    assert!(matches!(
        read_all("e.jsonl", b"  \n\n"),
        Err(GatewayError::Empty { .. })
    ));
    assert!(matches!(
        read_all("e.json", b"[]"),
        Err(GatewayError::Empty { .. })
    ));
    let unknown = read_all("x.jsonl", br#"{"ts": 1, "latency": 2}"#).unwrap_err();
    assert!(matches!(unknown, GatewayError::UnknownFormat { .. }));
    assert!(
        unknown.to_string().contains("keys are ts, latency"),
        "{unknown}"
    );
    let csv = read_all("x.csv", b"time,latency\n1,2\n").unwrap_err();
    assert!(
        csv.to_string()
            .starts_with("x.csv: line 1: a CSV header needs"),
        "{csv}"
    );
    let missing = read_all("x.csv", b"request_id,start_time,end_time\na,1,2\n").unwrap_err();
    assert_eq!(
        missing.to_string(),
        "x.csv: line 1: the CSV header has no `model` column"
    );
}

#[test]
fn leading_blank_lines_keep_line_numbers_true() {
    let text = format!("\n\n{}", with_bad_line_3(GENERIC_JSONL));
    let error = read_all("g.jsonl", text.as_bytes()).unwrap_err();
    assert!(error.to_string().starts_with("g.jsonl line 5:"), "{error}");
    let csv = format!("\n{GENERIC_CSV}x,1,,0,m,1,1,ok,stop\n");
    let error = read_all("g.csv", csv.as_bytes()).unwrap_err();
    assert!(error.to_string().starts_with("g.csv line 6:"), "{error}");
}

#[test]
fn reports_progress_in_bytes() {
    let config = SyntheticConfig::with_requests(1, 20_000);
    let mut log = Vec::new();
    write_synthetic_jsonl(&config, &mut log).unwrap();
    let mut reports = Vec::new();
    let mut count = 0u64;
    let summary = read_gateway_log(
        Cursor::new(&log),
        &ReadOptions::new("synthetic.jsonl"),
        |_| count += 1,
        |bytes| reports.push(bytes),
    )
    .unwrap();
    assert_eq!(count, 20_000);
    assert!(reports.len() >= 4, "{reports:?}");
    assert!(reports.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(*reports.last().unwrap(), log.len() as u64);
    assert_eq!(summary.bytes_read, log.len() as u64);
}

#[test]
fn synthetic_logs_read_back_to_the_same_records() {
    let mut config = SyntheticConfig::pilot_week(11);
    config.max_requests = Some(2_000);
    let mut log = Vec::new();
    write_synthetic_jsonl(&config, &mut log).unwrap();
    let (records, summary) = read_all("synthetic.jsonl", &log).unwrap();
    assert_eq!(summary.format, GatewayFormat::GenericJsonl);
    assert_eq!(records, config.records().collect::<Vec<_>>());
}

// ---------------------------------------------------------------------------------------------
// Cut-off files (issue #13)

/// Every prefix of `bytes`: an error saying the file was cut off when the cut falls inside a
/// record, or (cut at a record's end) the leading records of the whole file.
fn check_prefixes(name: &str, bytes: &[u8]) {
    let (whole, _) = read_all(name, bytes).unwrap_or_else(|e| panic!("{e}"));
    let step = (bytes.len() / 300).max(1);
    for cut in (1..bytes.len()).step_by(step).chain([bytes.len() - 1]) {
        let at_line_end = bytes[..cut].ends_with(b"\n")
            || bytes[cut..]
                .iter()
                .take_while(|&&b| b != b'\n')
                .all(u8::is_ascii_whitespace);
        match read_all(name, &bytes[..cut]) {
            Ok((records, _)) => {
                assert!(
                    at_line_end,
                    "{name} cut at {cut} read {} records without an error",
                    records.len()
                );
                assert_eq!(records[..], whole[..records.len()], "{name} cut at {cut}");
            }
            Err(GatewayError::Line(e)) => {
                if !at_line_end {
                    assert!(e.message.contains("cut off"), "{name} cut at {cut}: {e}");
                }
            }
            Err(GatewayError::Empty { .. } | GatewayError::UnknownFormat { .. }) => {}
            Err(other) => panic!("{name} cut at {cut}: {other}"),
        }
    }
}

#[test]
fn every_prefix_of_every_gateway_format_fails_or_is_the_leading_records() {
    let spend_csv = "request_id,call_type,startTime,endTime,completionStartTime,model,model_group,prompt_tokens,completion_tokens,status,response
r1,acompletion,2025-02-11 00:56:19.683,2025-02-11 00:56:21.183,2025-02-11 00:56:19.9,hosted_vllm/q,qwen,300,50,success,\"{\"\"choices\"\": [
{\"\"finish_reason\"\": \"\"stop\"\"}]}\"
r2,acompletion,2025-02-11 00:57:00.000+00,2025-02-11 00:57:00.500+00,NULL,hosted_vllm/q,,10,0,failure,
";
    let spend_json = r#"[
  {"request_id": "r1", "startTime": "2025-02-11T00:56:19.683Z", "endTime": "2025-02-11T00:56:21.183Z",
   "model": "q", "prompt_tokens": 300, "completion_tokens": 50, "status": "success"},
  {"request_id": "r2", "startTime": "2025-02-11T00:57:00Z", "endTime": "2025-02-11T00:57:00.5Z",
   "model": "q", "prompt_tokens": 10, "completion_tokens": 0, "status": "failure"}
]
"#;
    let config = SyntheticConfig {
        days: 1,
        users: 2,
        ..SyntheticConfig::pilot_week(7)
    };
    let mut synthetic = Vec::new();
    write_synthetic_jsonl(&config, &mut synthetic).unwrap();
    synthetic.truncate(
        synthetic[..6_000]
            .iter()
            .rposition(|&b| b == b'\n')
            .unwrap()
            + 1,
    );
    for (name, bytes) in [
        ("generic.jsonl", GENERIC_JSONL.as_bytes()),
        ("generic.csv", GENERIC_CSV.as_bytes()),
        ("spend_logs.csv", spend_csv.as_bytes()),
        ("spend_logs.json", spend_json.as_bytes()),
        ("synthetic.jsonl", &synthetic[..]),
        (
            "payload.json",
            &fixture("litellm/standard_logging_payload.from_gcs_test.json")[..],
        ),
    ] {
        check_prefixes(name, bytes);
    }
}

#[test]
fn a_cut_off_csv_row_names_its_line_and_the_missing_fields() {
    let cut = &GENERIC_CSV[..GENERIC_CSV.len() - 30];
    let error = read_all("g.csv", cut.as_bytes()).unwrap_err();
    assert_eq!(
        error.to_string(),
        "g.csv line 4: the file ends mid-record (cut off?): the last row has no line end; \
         expected 9 fields like the header, found 4"
    );
    // a complete last row without its line end cannot be told from a cut one
    let no_line_end = GENERIC_CSV.trim_end();
    let error = read_all("g.csv", no_line_end.as_bytes()).unwrap_err();
    assert_eq!(
        error.to_string(),
        "g.csv line 4: the file ends mid-record (cut off?): the last row has no line end; its \
         last field may be incomplete"
    );
    // skipping bad lines: the records before it, and the cut row counted as skipped
    let (records, summary) = read_skipping("g.csv", cut.as_bytes());
    assert_eq!(records.len(), 2);
    assert_eq!(summary.skipped.first_lines(), vec![4]);
}

#[test]
fn a_csv_cut_inside_a_quoted_field_is_not_a_short_record() {
    let text = "request_id,start_time,end_time,model,prompt_tokens,completion_tokens,status,finish_reason\n\
        a,2026-03-02T09:00:00Z,2026-03-02T09:00:01Z,m,1,1,ok,stop\n\
        b,2026-03-02T09:00:00Z,2026-03-02T09:00:01Z,\"a model\n name cut";
    let error = read_all("g.csv", text.as_bytes()).unwrap_err();
    assert_eq!(
        error.to_string(),
        "g.csv line 3: the file ends mid-record (cut off?): the quoted field opened on this line \
         is not closed"
    );
}

#[test]
fn a_json_list_without_its_closing_bracket_is_cut_off() {
    let text = "[\n{\"request_id\":\"a\",\"start_time\":1772442000,\"end_time\":1772442001,\"model\":\"m\",\"prompt_tokens\":1,\"completion_tokens\":1,\"status\":\"ok\"},\n";
    let error = read_all("g.json", text.as_bytes()).unwrap_err();
    assert_eq!(
        error.to_string(),
        "g.json line 3: the file ends mid-record (cut off?): the top-level JSON list is not \
         closed with `]`"
    );
    let (records, summary) = read_skipping("g.json", text.as_bytes());
    assert_eq!(records.len(), 1);
    assert_eq!(summary.skipped.count, 1);
}

#[test]
fn instants_outside_2000_to_2100_and_requests_over_a_day_are_refused() {
    let line = |start: &str, end: &str| {
        format!(
            "{{\"request_id\":\"a\",\"start_time\":{start},\"end_time\":{end},\"model\":\"m\",\"prompt_tokens\":1,\"completion_tokens\":1,\"status\":\"ok\"}}\n"
        )
    };
    let error = |start: &str, end: &str| {
        read_all("g.jsonl", line(start, end).as_bytes())
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        error("1", "2"),
        "g.jsonl line 1: field \"start_time\": 1: the instant (1970-01-01T00:00:01.000Z) is not \
         between 2000-01-01 and 2100-01-01: a wrong unit or a placeholder date?"
    );
    assert!(error("1772442000", "1e300").starts_with("g.jsonl line 1: field \"end_time\": 1e300:"));
    assert!(error("1772442000", "\"NaN\"").contains("field \"end_time\""));
    assert!(error("\"9999-12-31T23:59:59Z\"", "1772442001").contains("field \"start_time\""));
    assert_eq!(
        error("1772442000", "1772701200"),
        "g.jsonl line 1: field \"end_time\": 3.0 days after start_time: a request lasting more \
         than a day is a unit or clock mistake"
    );
    // the edges: 2000-01-01 is in, a request of exactly a day is in
    assert!(read_all("g.jsonl", line("946684800", "946771200").as_bytes()).is_ok());
}

#[test]
fn a_header_cut_off_before_any_row_is_one_bad_record_even_when_skipping() {
    // found by fuzzing: skipping bad lines, the cut header was reported again and again
    let text = b"request_id,call_type,startTime,endTime,completionStartTime,model";
    let error = read_all("s.csv", text).unwrap_err();
    assert_eq!(
        error.to_string(),
        "s.csv line 1: the file ends mid-record (cut off?): the header has no line end and no \
         rows follow it"
    );
    let (records, summary) = read_skipping("s.csv", text);
    assert!(records.is_empty());
    assert_eq!(summary.skipped.count, 1);
}

/// Serial and parallel reading of `bytes`: records, summary or error, compared whole.
fn both_ways(
    name: &str,
    bytes: &[u8],
    skip: bool,
    workers: usize,
) -> [Result<(Vec<GatewayRecord>, ImportSummary), GatewayError>; 2] {
    let options = ReadOptions::new(name).skip_bad_lines(skip);
    let mut serial = Vec::new();
    let serial = read_gateway_log(Cursor::new(bytes), &options, |r| serial.push(r), |_| {})
        .map(|summary| (serial, summary));
    let mut parallel = Vec::new();
    let parallel = read_gateway_log_parallel(
        Cursor::new(bytes),
        &options,
        workers,
        |r| parallel.push(r),
        |_| {},
    )
    .map(|summary| (parallel, summary));
    [serial, parallel]
}

/// A synthetic JSON Lines log of several batches, with `bad` lines spoiled at the given
/// 0-based indices (a field of the wrong type, then broken JSON, alternately).
fn several_batches(bad: &[usize]) -> Vec<u8> {
    let config = SyntheticConfig::with_requests(3, 12_000);
    let mut log = Vec::new();
    write_synthetic_jsonl(&config, &mut log).unwrap();
    assert!(log.len() > 4 * parallel::BATCH_BYTES, "{} bytes", log.len());
    let text = String::from_utf8(log).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for (n, &i) in bad.iter().enumerate() {
        lines[i] = if n % 2 == 0 {
            lines[i].replacen("\"prompt_tokens\":", "\"prompt_tokens\":\"many\",\"x\":", 1)
        } else {
            lines[i][..lines[i].len() / 2].to_string()
        };
    }
    (lines.join("\n") + "\n").into_bytes()
}

#[test]
fn the_parallel_reader_gives_the_serial_readers_records_errors_and_counts() {
    let clean = several_batches(&[]);
    let [serial, parallel] = both_ways("big.jsonl", &clean, false, 3);
    let (records, summary) = serial.unwrap();
    assert_eq!(summary.records, 12_000);
    assert_eq!(Ok((records, summary)), parallel);

    // Bad lines skipped: the same records, count and first lines, across batch edges.
    let spoiled = several_batches(&[5, 2_000, 2_001, 7_777, 11_999]);
    let [serial, parallel] = both_ways("big.jsonl", &spoiled, true, 2);
    let (records, summary) = serial.unwrap();
    assert_eq!(summary.skipped.count, 5);
    assert_eq!(
        summary.skipped.first_lines(),
        vec![6, 2_001, 2_002, 7_778, 12_000]
    );
    assert_eq!(records.len(), 11_995);
    assert_eq!(Ok((records, summary)), parallel);

    // Strict: the same first error, naming its line and field.
    let [serial, parallel] = both_ways("big.jsonl", &spoiled, false, 4);
    let error = serial.unwrap_err();
    assert!(
        error
            .to_string()
            .starts_with("big.jsonl line 6: field \"prompt_tokens\""),
        "{error}"
    );
    assert_eq!(Err(error), parallel.map(|(_, s)| s).map(|_| unreachable!()));

    // A file cut off mid-record, multi-line JSON and CSV read alike too.
    let mut cut = clean.clone();
    cut.truncate(clean.len() - 40);
    let [serial, parallel] = both_ways("cut.jsonl", &cut, false, 2);
    assert!(
        serial
            .as_ref()
            .unwrap_err()
            .to_string()
            .contains(reader::MID_RECORD)
    );
    assert_eq!(serial, parallel);
    for (name, text) in [("g.jsonl", GENERIC_JSONL), ("g.csv", GENERIC_CSV)] {
        let [serial, parallel] = both_ways(name, text.as_bytes(), false, 2);
        assert!(serial.is_ok(), "{name}");
        assert_eq!(serial, parallel, "{name}");
    }
}

// ---------------------------------------------------------------------------------------------
// Plausibility (crate::plausible): numeric instants whose unit cannot be told.

#[test]
fn a_start_time_of_1e18_beside_seconds_is_refused_not_read_as_nanoseconds() {
    let text = "{\"request_id\":\"a\",\"start_time\":1772442000,\"end_time\":1772442001.5,\"model\":\"m\",\"prompt_tokens\":1,\"completion_tokens\":1,\"status\":\"ok\"}\n\
        {\"request_id\":\"b\",\"start_time\":1e18,\"end_time\":1772442003,\"model\":\"m\",\"prompt_tokens\":1,\"completion_tokens\":1,\"status\":\"ok\"}\n";
    let error = read_all("g.jsonl", text.as_bytes())
        .unwrap_err()
        .to_string();
    assert_eq!(
        error,
        "g.jsonl line 2: field \"start_time\": 1e18 would be Unix nanoseconds while end_time is \
         in seconds: the unit is ambiguous; write every instant of a record in one unit (Unix \
         seconds)"
    );
    // 1e15 is microseconds beside seconds: the same.
    let text = text.replace("1e18", "1e15");
    let error = read_all("g.jsonl", text.as_bytes())
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("1000000000000000 would be Unix microseconds"),
        "{error}"
    );
    // A record written wholly in nanoseconds is unambiguous and read.
    let ns = "{\"request_id\":\"a\",\"start_time\":1772442000000000000,\"end_time\":1772442001500000000,\"model\":\"m\",\"prompt_tokens\":1,\"completion_tokens\":1,\"status\":\"ok\"}\n";
    let (records, _) = read_all("g.jsonl", ns.as_bytes()).unwrap();
    assert_eq!(
        (records[0].start_ms, records[0].end_ms),
        (1_772_442_000_000, 1_772_442_001_500)
    );
    // The year 5138 as seconds (1e11) is not silently read as milliseconds (1973).
    let error = read_all("g.jsonl", text.replace("1e15", "1e11").as_bytes())
        .unwrap_err()
        .to_string();
    assert!(
        error.starts_with("g.jsonl line 2: field \"start_time\": 100000000000: the instant (1973-"),
        "{error}"
    );
}

#[test]
fn litellm_instants_in_different_units_are_refused() {
    let text = String::from_utf8(fixture(
        "litellm/standard_logging_payload.from_gcs_test.json",
    ))
    .unwrap();
    let bad = text.replacen("\"startTime\": 1739235379.683053", "\"startTime\": 1e18", 1);
    assert_ne!(bad, text);
    let error = read_all("payload.json", bad.as_bytes())
        .unwrap_err()
        .to_string();
    assert!(
        error.contains(
            "field \"startTime\": 1e18 would be Unix nanoseconds while completionStartTime is in \
             seconds"
        ),
        "{error}"
    );
}

/// The bodies LiteLLM 1.108.7's `generic_api` callback posted through a real proxy
/// (`testdata/litellm-1.108.7-generic-api/`, made by `testdata/tools/run_all.sh`): one JSON array
/// per post, 16 payloads. Four complete answers, eight streams the client hung up on (logged as
/// `status: "success"` with error code 499 and an invented `finish_reason: "stop"`), one refused
/// request (400), one embedding, one health probe and one `/health` call refused by the auth.
#[test]
fn reads_real_litellm_generic_api_posts_with_disconnects_and_probes() {
    let bytes = fixture("litellm-1.108.7-generic-api/posts.json");
    let (records, summary) = read_all("posts.json", &bytes).unwrap();
    assert_eq!(summary.format, GatewayFormat::LitellmStandardPayload);
    assert_eq!(records.len(), 13, "4 complete, 8 cancelled, 1 refused");
    let with = |s: RequestStatus| records.iter().filter(|r| r.status == s).count();
    assert_eq!(with(RequestStatus::Ok), 4);
    assert_eq!(with(RequestStatus::Cancelled), 8);
    assert_eq!(with(RequestStatus::Error), 1);
    assert!(
        records
            .iter()
            .filter(|r| r.status == RequestStatus::Cancelled)
            .all(|r| r.finish_reason.is_none()),
        "LiteLLM's invented finish reason of a cut answer is dropped"
    );
    assert!(
        records.iter().all(|r| r.model == "pilot-chat"),
        "no model \"\""
    );
    assert_eq!(summary.left_out.health_probes, 2);
    assert_eq!(summary.left_out.not_generation, 1);
    assert_eq!(summary.left_out.call_types.get("aembedding"), Some(&1));
    assert!(
        summary.notes.iter().any(|n| n.starts_with(
            "3 of 16 records are not the model's demand and were left out of the profile: \
             2 health probes of the gateway; 1 call that generates no text (aembedding ×1)"
        )),
        "{:?}",
        summary.notes
    );

    let (profile, _) = crate::demand::profile_gateway_log(
        Cursor::new(&bytes),
        &ReadOptions::new("posts.json"),
        crate::demand::DemandOptions::default(),
        |_| {},
    )
    .unwrap();
    assert_eq!(profile.outcomes.requests, 13);
    assert_eq!(profile.outcomes.ok, 4);
    assert_eq!(profile.outcomes.cancelled, 8);
    // Only the four complete answers give latencies, to the microsecond: TTFT
    // completionStartTime − startTime = 42.970, 53.970, 60.696 and 343.990 ms; E2E of the first
    // 1796417117.286181 − 1796417116.671727 s = 614.454 ms.
    let ttft = profile.gateway_latency.ttft_ms.clone().unwrap();
    assert_eq!(ttft.count, 4);
    assert!((ttft.min - 42.970).abs() < 0.0015, "{}", ttft.min);
    assert!((ttft.max - 343.990).abs() < 0.0015, "{}", ttft.max);
    let e2e = profile.gateway_latency.e2e_ms.clone().unwrap();
    assert_eq!(e2e.count, 4);
    assert!((e2e.max - 614.454).abs() < 0.0015, "{}", e2e.max);
}

/// The live feed keeps each LiteLLM record without its content ([`litellm::without_content`]):
/// LiteLLM 1.108.7's real posts, the GCS test payload and a SpendLogs array read to the same
/// records and the same summary kept whole or trimmed, at a fraction of the size.
#[test]
fn litellm_records_without_their_content_read_the_same() {
    let posts = fixture("litellm-1.108.7-generic-api/posts.json");
    let payloads: Vec<serde_json::Value> = posts
        .split(|b| *b == b'\n')
        .filter(|line| !line.is_empty())
        .flat_map(|line| serde_json::from_slice::<Vec<serde_json::Value>>(line).unwrap())
        .collect();
    let single: serde_json::Value = serde_json::from_slice(&fixture(
        "litellm/standard_logging_payload.from_gcs_test.json",
    ))
    .unwrap();
    let spend_logs = serde_json::json!([{
        "request_id": "chatcmpl-1", "call_type": "acompletion", "api_key": "88dc28d0",
        "spend": 0.00012, "prompt_tokens": 300, "completion_tokens": 50,
        "startTime": "2025-02-11T00:56:19.683000Z", "endTime": "2025-02-11T00:56:21.183000Z",
        "completionStartTime": "2025-02-11T00:56:19.900000Z", "model": "hosted_vllm/qwen",
        "model_group": "qwen", "status": "success", "messages": [{"content": "a secret"}],
        "response": {"choices": [{"finish_reason": "length", "message": {"content": "secret"}}]}
    }]);
    for (name, records) in [
        ("posts", payloads),
        ("gcs", vec![single]),
        ("spend", spend_logs.as_array().unwrap().clone()),
    ] {
        let lines = |trim: bool| {
            records
                .iter()
                .map(|r| {
                    let kept = if trim {
                        litellm::without_content(r).expect("a LiteLLM record")
                    } else {
                        r.clone()
                    };
                    serde_json::to_string(&kept).unwrap()
                })
                .collect::<Vec<_>>()
                .join("\n")
        };
        let (whole, trimmed) = (lines(false), lines(true));
        assert!(!trimmed.contains("secret"), "{name}: content left out");
        // The real payloads: 13 KB each with their prompt, answer and key metadata.
        let shrink = match name {
            "posts" => 10,
            "gcs" => 4,
            _ => 1,
        };
        assert!(
            trimmed.len() * shrink < whole.len(),
            "{name}: {} of {}",
            trimmed.len(),
            whole.len()
        );
        let (a, sa) = read_all(name, whole.as_bytes()).unwrap();
        let (b, sb) = read_all(name, trimmed.as_bytes()).unwrap();
        assert_eq!(a, b, "{name}");
        assert_eq!(sa.format, sb.format, "{name}");
        assert_eq!(sa.left_out, sb.left_out, "{name}");
        assert_eq!(sa.notes, sb.notes, "{name}");
    }
    let generic = serde_json::json!({"start_time": 1, "request_id": "x"});
    assert_eq!(
        litellm::without_content(&generic),
        None,
        "not LiteLLM: kept whole"
    );
}
