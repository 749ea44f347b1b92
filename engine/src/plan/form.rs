//! Plan forms: raw strings as a browser posts them, parsed into plan content.
//!
//! Parsing follows the pilot form: trim, turn names into the domain's enums, numbers into
//! numbers, then validate, and name the field that failed. A few conveniences keep forms short: a
//! metric that admits a single statistic or unit (error rate: rate, %) takes it when the field is
//! empty, and an empty definition is filled with the metric's default so the stored mark always
//! states the definition it was written with. Decimals are written with a point; a comma is
//! refused rather than guessed (is `1,500` one and a half or fifteen hundred?).
//!
//! Each form converts back from its value (`From<&PassMark>` …) so an edit page can prefill.

use super::comparator::Comparator;
use super::content::{
    DemandAssumptions, PilotServing, PlanContent, QualitySet, Scenario, TokenRange,
};
use super::error::{FormFieldError, PlanErrors, PlanSection};
use super::metric::Metric;
use super::pass_mark::PassMark;
use super::point::MeasurementPoint;
use super::scope::Scope;
use super::statistic::Statistic;
use super::unit::Unit;
use serde::{Deserialize, Serialize};

/// An error of `field`, worded in English (`en`) and German (`de`).
fn error(field: &'static str, en: impl Into<String>, de: impl Into<String>) -> FormFieldError {
    FormFieldError::new_in(field, en, de)
}

/// A field left empty that must be filled.
fn required(field: &'static str) -> FormFieldError {
    error(field, "required", "Pflichtfeld")
}

/// Parses a decimal number; empty is `None`.
fn optional_decimal(field: &'static str, text: &str) -> Result<Option<f64>, FormFieldError> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    if text.contains(',') {
        return Err(error(
            field,
            format!("`{text}`: write decimals with a point and no thousands separator"),
            format!(
                "`{text}`: Dezimalzahlen mit Punkt statt Komma schreiben, ohne \
                 Tausendertrennzeichen (z. B. 2.5)"
            ),
        ));
    }
    match text.parse::<f64>() {
        Ok(value) if value.is_finite() => Ok(Some(value)),
        _ => Err(error(
            field,
            format!("`{text}` is not a number"),
            format!("`{text}` ist keine Zahl"),
        )),
    }
}

/// Parses a whole number; empty is `None`.
fn optional_count(field: &'static str, text: &str) -> Result<Option<u32>, FormFieldError> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    text.parse::<u32>().map(Some).map_err(|_| {
        error(
            field,
            format!("`{text}` is not a whole number"),
            format!("`{text}` ist keine ganze Zahl"),
        )
    })
}

fn required_count(field: &'static str, text: &str) -> Result<u32, FormFieldError> {
    optional_count(field, text)?.ok_or_else(|| required(field))
}

/// Parses a yes/no select; empty is "not stated".
fn optional_switch(field: &'static str, text: &str) -> Result<Option<bool>, FormFieldError> {
    match text.trim().to_ascii_lowercase().as_str() {
        "" => Ok(None),
        "on" | "true" | "yes" | "1" => Ok(Some(true)),
        "off" | "false" | "no" | "0" => Ok(Some(false)),
        other => Err(error(
            field,
            format!("`{other}`: expected on or off"),
            format!("`{other}`: erwartet wird an (on) oder aus (off)"),
        )),
    }
}

fn text_of_count(value: Option<u32>) -> String {
    value.map(|v| v.to_string()).unwrap_or_default()
}

fn text_of_switch(value: Option<bool>) -> String {
    match value {
        Some(true) => "on".into(),
        Some(false) => "off".into(),
        None => String::new(),
    }
}

/// One pass mark as a form posts it. `metric` is a metric name (`ttft`, …) or `custom`, in which
/// case `custom_name` names it and `unit` is its unit; `scope` is `all_traffic`, `planned_peak`
/// or `scenario:<name>`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PassMarkForm {
    pub metric: String,
    #[serde(default)]
    pub custom_name: String,
    pub statistic: String,
    pub comparator: String,
    pub threshold: String,
    pub unit: String,
    pub point: String,
    #[serde(default)]
    pub definition: String,
    #[serde(default)]
    pub scope: String,
    #[serde(default)]
    pub rationale: String,
}

impl PassMark {
    /// Parses and validates a pass mark form; the error names the form field and words its
    /// message in English and German ([`FormFieldError::text_in`]).
    pub fn parse(form: &PassMarkForm) -> Result<PassMark, FormFieldError> {
        let metric_text = form.metric.trim();
        let is_custom = metric_text.eq_ignore_ascii_case("custom");
        let built_in = if metric_text.is_empty() {
            return Err(error("metric", "choose a metric", "wählen Sie eine Metrik"));
        } else if is_custom {
            None
        } else {
            Some(Metric::parse_built_in(metric_text).ok_or_else(|| {
                error(
                    "metric",
                    format!("unknown metric `{metric_text}`"),
                    format!("unbekannte Metrik `{metric_text}`"),
                )
            })?)
        };
        let unit = match form.unit.trim() {
            "" => match built_in.as_ref().map(Metric::allowed_units).as_deref() {
                Some([only]) => *only,
                _ => return Err(error("unit", "choose a unit", "wählen Sie eine Einheit")),
            },
            text => Unit::parse(text).ok_or_else(|| {
                error(
                    "unit",
                    format!("unknown unit `{text}`"),
                    format!("unbekannte Einheit `{text}`"),
                )
            })?,
        };
        let metric = match built_in {
            Some(metric) => metric,
            None => Metric::Custom {
                name: form.custom_name.trim().to_string(),
                unit,
            },
        };
        let statistic = match form.statistic.trim() {
            "" => match metric.allowed_statistics() {
                [only] => *only,
                _ => {
                    return Err(error(
                        "statistic",
                        "choose a statistic",
                        "wählen Sie eine Statistik",
                    ));
                }
            },
            text => Statistic::parse(text).ok_or_else(|| {
                error(
                    "statistic",
                    format!("unknown statistic `{text}`"),
                    format!("unbekannte Statistik `{text}`"),
                )
            })?,
        };
        let comparator = match form.comparator.trim() {
            "" => {
                return Err(error(
                    "comparator",
                    "choose ≤, <, ≥ or >",
                    "wählen Sie ≤, <, ≥ oder >",
                ));
            }
            text => Comparator::parse(text).ok_or_else(|| {
                error(
                    "comparator",
                    format!("unknown comparator `{text}`"),
                    format!("unbekannter Vergleich `{text}`"),
                )
            })?,
        };
        let threshold =
            optional_decimal("threshold", &form.threshold)?.ok_or_else(|| required("threshold"))?;
        let point = match form.point.trim() {
            "" => {
                return Err(error(
                    "point",
                    "say where the figure is measured",
                    "geben Sie an, wo die Zahl gemessen wird",
                ));
            }
            text => MeasurementPoint::parse(text).ok_or_else(|| {
                error(
                    "point",
                    format!("unknown measurement point `{text}`"),
                    format!("unbekannter Messpunkt `{text}`"),
                )
            })?,
        };
        let scope = Scope::parse(&form.scope).ok_or_else(|| {
            error(
                "scope",
                format!(
                    "`{}`: expected all traffic, the planned peak or a scenario",
                    form.scope.trim()
                ),
                format!(
                    "`{}`: erwartet werden alle Anfragen, die geplante Spitzen-Parallelität oder \
                     ein Szenario",
                    form.scope.trim()
                ),
            )
        })?;
        let definition = match form.definition.trim() {
            "" => metric.default_definition().to_string(),
            stated => stated.to_string(),
        };
        let mark = PassMark {
            metric,
            statistic,
            comparator,
            threshold,
            unit,
            point,
            definition,
            scope,
            rationale: form.rationale.trim().to_string(),
        };
        mark.validate()?;
        Ok(mark)
    }
}

impl From<&PassMark> for PassMarkForm {
    fn from(mark: &PassMark) -> Self {
        let custom_name = match &mark.metric {
            Metric::Custom { name, .. } => name.clone(),
            _ => String::new(),
        };
        PassMarkForm {
            metric: mark.metric.as_str().to_string(),
            custom_name,
            statistic: mark.statistic.as_str().to_string(),
            comparator: mark.comparator.as_str().to_string(),
            threshold: mark.threshold.to_string(),
            unit: mark.unit.as_str().to_string(),
            point: mark.point.as_str().to_string(),
            definition: mark.definition.clone(),
            scope: mark.scope.form_value(),
            rationale: mark.rationale.clone(),
        }
    }
}

/// A scenario as a form posts it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScenarioForm {
    pub name: String,
    pub input_tokens_low: String,
    pub input_tokens_high: String,
    pub output_tokens_low: String,
    pub output_tokens_high: String,
}

impl From<&Scenario> for ScenarioForm {
    fn from(scenario: &Scenario) -> Self {
        ScenarioForm {
            name: scenario.name.clone(),
            input_tokens_low: scenario.input_tokens.low_tokens.to_string(),
            input_tokens_high: scenario.input_tokens.high_tokens.to_string(),
            output_tokens_low: scenario.output_tokens.low_tokens.to_string(),
            output_tokens_high: scenario.output_tokens.high_tokens.to_string(),
        }
    }
}

/// Demand assumptions as a form posts them; empty fields are "not known yet".
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DemandForm {
    pub pilot_users: String,
    pub production_users: String,
    pub peak_arrival_rate_req_s: String,
    pub context_tokens_per_request: String,
    #[serde(default)]
    pub planned_peak_concurrency: String,
}

impl From<&DemandAssumptions> for DemandForm {
    fn from(demand: &DemandAssumptions) -> Self {
        DemandForm {
            pilot_users: text_of_count(demand.pilot_users),
            production_users: text_of_count(demand.production_users),
            peak_arrival_rate_req_s: demand
                .peak_arrival_rate_req_s
                .map(|v| v.to_string())
                .unwrap_or_default(),
            context_tokens_per_request: text_of_count(demand.context_tokens_per_request),
            planned_peak_concurrency: text_of_count(demand.planned_peak_concurrency),
        }
    }
}

/// The quality set as a form posts it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct QualityForm {
    pub questions: String,
    pub hit_k: String,
}

impl From<&QualitySet> for QualityForm {
    fn from(quality: &QualitySet) -> Self {
        QualityForm {
            questions: text_of_count(quality.questions),
            hit_k: text_of_count(quality.hit_k),
        }
    }
}

/// The pilot's serving configuration as a form posts it; switches are `on`, `off` or empty.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ServingForm {
    pub engine: String,
    pub engine_version: String,
    pub gpu: String,
    pub precision: String,
    pub kv_cache_dtype: String,
    pub tensor_parallel: String,
    pub max_num_batched_tokens: String,
    pub prefix_caching: String,
    pub cuda_graphs: String,
}

impl From<&PilotServing> for ServingForm {
    fn from(serving: &PilotServing) -> Self {
        ServingForm {
            engine: serving.engine.clone(),
            engine_version: serving.engine_version.clone(),
            gpu: serving.gpu.clone(),
            precision: serving.precision.clone(),
            kv_cache_dtype: serving.kv_cache_dtype.clone(),
            tensor_parallel: text_of_count(serving.tensor_parallel),
            max_num_batched_tokens: text_of_count(serving.max_num_batched_tokens),
            prefix_caching: text_of_switch(serving.prefix_caching),
            cuda_graphs: text_of_switch(serving.cuda_graphs),
        }
    }
}

/// A whole plan as a form (or a JSON API) posts it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PlanForm {
    #[serde(default)]
    pub pass_marks: Vec<PassMarkForm>,
    #[serde(default)]
    pub scenarios: Vec<ScenarioForm>,
    #[serde(default)]
    pub demand: DemandForm,
    #[serde(default)]
    pub quality: QualityForm,
    #[serde(default)]
    pub serving: ServingForm,
}

impl From<&PlanContent> for PlanForm {
    fn from(content: &PlanContent) -> Self {
        PlanForm {
            pass_marks: content.pass_marks.iter().map(PassMarkForm::from).collect(),
            scenarios: content.scenarios.iter().map(ScenarioForm::from).collect(),
            demand: (&content.demand).into(),
            quality: (&content.quality).into(),
            serving: (&content.serving).into(),
        }
    }
}

fn parse_scenario(form: &ScenarioForm) -> Result<Scenario, FormFieldError> {
    Ok(Scenario {
        name: form.name.trim().to_string(),
        input_tokens: TokenRange {
            low_tokens: required_count("input_tokens_low", &form.input_tokens_low)?,
            high_tokens: required_count("input_tokens_high", &form.input_tokens_high)?,
        },
        output_tokens: TokenRange {
            low_tokens: required_count("output_tokens_low", &form.output_tokens_low)?,
            high_tokens: required_count("output_tokens_high", &form.output_tokens_high)?,
        },
    })
}

fn parse_demand(form: &DemandForm) -> Result<DemandAssumptions, FormFieldError> {
    Ok(DemandAssumptions {
        pilot_users: optional_count("pilot_users", &form.pilot_users)?,
        production_users: optional_count("production_users", &form.production_users)?,
        peak_arrival_rate_req_s: optional_decimal(
            "peak_arrival_rate_req_s",
            &form.peak_arrival_rate_req_s,
        )?,
        context_tokens_per_request: optional_count(
            "context_tokens_per_request",
            &form.context_tokens_per_request,
        )?,
        planned_peak_concurrency: optional_count(
            "planned_peak_concurrency",
            &form.planned_peak_concurrency,
        )?,
    })
}

fn parse_quality(form: &QualityForm) -> Result<QualitySet, FormFieldError> {
    Ok(QualitySet {
        questions: optional_count("questions", &form.questions)?,
        hit_k: optional_count("hit_k", &form.hit_k)?,
    })
}

fn parse_serving(form: &ServingForm) -> Result<PilotServing, FormFieldError> {
    Ok(PilotServing {
        engine: form.engine.trim().to_string(),
        engine_version: form.engine_version.trim().to_string(),
        gpu: form.gpu.trim().to_string(),
        precision: form.precision.trim().to_string(),
        kv_cache_dtype: form.kv_cache_dtype.trim().to_string(),
        tensor_parallel: optional_count("tensor_parallel", &form.tensor_parallel)?,
        max_num_batched_tokens: optional_count(
            "max_num_batched_tokens",
            &form.max_num_batched_tokens,
        )?,
        prefix_caching: optional_switch("prefix_caching", &form.prefix_caching)?,
        cuda_graphs: optional_switch("cuda_graphs", &form.cuda_graphs)?,
    })
}

impl PlanContent {
    /// Parses and validates a whole plan form, reporting every error at once: the first problem
    /// of each pass mark and scenario, then the checks across the plan
    /// ([`PlanContent::validate`]) once every part parsed.
    pub fn parse(form: &PlanForm) -> Result<PlanContent, PlanErrors> {
        let mut errors = Vec::new();
        let mut pass_marks = Vec::new();
        for (index, mark) in form.pass_marks.iter().enumerate() {
            match PassMark::parse(mark) {
                Ok(mark) => pass_marks.push(mark),
                Err(e) => errors.push(e.placed(PlanSection::PassMark, Some(index))),
            }
        }
        let mut scenarios = Vec::new();
        for (index, scenario) in form.scenarios.iter().enumerate() {
            match parse_scenario(scenario) {
                Ok(scenario) => scenarios.push(scenario),
                Err(e) => errors.push(e.placed(PlanSection::Scenario, Some(index))),
            }
        }
        let mut section = |section: PlanSection, e: FormFieldError| {
            errors.push(e.placed(section, None));
        };
        let demand = parse_demand(&form.demand)
            .map_err(|e| section(PlanSection::Demand, e))
            .unwrap_or_default();
        let quality = parse_quality(&form.quality)
            .map_err(|e| section(PlanSection::Quality, e))
            .unwrap_or_default();
        let serving = parse_serving(&form.serving)
            .map_err(|e| section(PlanSection::Serving, e))
            .unwrap_or_default();
        if !errors.is_empty() {
            return Err(PlanErrors { errors });
        }
        let content = PlanContent {
            pass_marks,
            scenarios,
            demand,
            quality,
            serving,
        };
        content.validate()?;
        Ok(content)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::content::tests::plan;

    fn ttft_form() -> PassMarkForm {
        PassMarkForm {
            metric: "ttft".into(),
            statistic: "p95".into(),
            comparator: "≤".into(),
            threshold: " 500 ".into(),
            unit: "ms".into(),
            point: "gateway".into(),
            rationale: "  Chat users notice a wait beyond half a second. ".into(),
            ..PassMarkForm::default()
        }
    }

    #[test]
    fn a_form_parses_into_a_mark_with_its_default_definition() {
        let mark = PassMark::parse(&ttft_form()).unwrap();
        assert_eq!(mark.metric, Metric::Ttft);
        assert_eq!(mark.comparator, Comparator::Le);
        assert_eq!(mark.threshold, 500.0);
        assert_eq!(mark.definition, "submission → first content token");
        assert_eq!(mark.scope, Scope::AllTraffic);
        assert_eq!(
            mark.rationale,
            "Chat users notice a wait beyond half a second."
        );
        assert_eq!(PassMark::parse(&PassMarkForm::from(&mark)).unwrap(), mark);
    }

    #[test]
    fn single_choice_fields_may_be_left_empty() {
        let mark = PassMark::parse(&PassMarkForm {
            metric: "error_rate".into(),
            comparator: "le".into(),
            threshold: "1".into(),
            point: "gateway".into(),
            ..PassMarkForm::default()
        })
        .unwrap();
        assert_eq!(mark.statistic, Statistic::Rate);
        assert_eq!(mark.unit, Unit::Percent);
    }

    #[test]
    fn custom_metrics_take_their_name_and_unit_from_the_form() {
        let mark = PassMark::parse(&PassMarkForm {
            metric: "custom".into(),
            custom_name: " Citations per answer ".into(),
            statistic: "mean".into(),
            comparator: ">=".into(),
            threshold: "2".into(),
            unit: "score".into(),
            point: "evaluation_set".into(),
            definition: "citations counted per answer".into(),
            ..PassMarkForm::default()
        })
        .unwrap();
        assert_eq!(
            mark.metric,
            Metric::Custom {
                name: "Citations per answer".into(),
                unit: Unit::Score
            }
        );
        assert_eq!(PassMark::parse(&PassMarkForm::from(&mark)).unwrap(), mark);
    }

    #[test]
    fn each_bad_field_is_named() {
        let cases = [
            (
                PassMarkForm {
                    metric: "".into(),
                    ..ttft_form()
                },
                "metric",
            ),
            (
                PassMarkForm {
                    metric: "latency".into(),
                    ..ttft_form()
                },
                "metric",
            ),
            (
                PassMarkForm {
                    statistic: "p42".into(),
                    ..ttft_form()
                },
                "statistic",
            ),
            (
                PassMarkForm {
                    statistic: "".into(),
                    ..ttft_form()
                },
                "statistic",
            ),
            (
                PassMarkForm {
                    comparator: "==".into(),
                    ..ttft_form()
                },
                "comparator",
            ),
            (
                PassMarkForm {
                    threshold: "".into(),
                    ..ttft_form()
                },
                "threshold",
            ),
            (
                PassMarkForm {
                    threshold: "0,5".into(),
                    ..ttft_form()
                },
                "threshold",
            ),
            (
                PassMarkForm {
                    threshold: "NaN".into(),
                    ..ttft_form()
                },
                "threshold",
            ),
            (
                PassMarkForm {
                    threshold: "-3".into(),
                    ..ttft_form()
                },
                "threshold",
            ),
            (
                PassMarkForm {
                    unit: "tokens/s".into(),
                    ..ttft_form()
                },
                "unit",
            ),
            (
                PassMarkForm {
                    unit: "".into(),
                    ..ttft_form()
                },
                "unit",
            ),
            (
                PassMarkForm {
                    point: "".into(),
                    ..ttft_form()
                },
                "point",
            ),
            (
                PassMarkForm {
                    scope: "weekends".into(),
                    ..ttft_form()
                },
                "scope",
            ),
            (
                PassMarkForm {
                    metric: "custom".into(),
                    ..ttft_form()
                },
                "custom_name",
            ),
        ];
        for (form, field) in cases {
            assert_eq!(PassMark::parse(&form).unwrap_err().field, field, "{form:?}");
        }
    }

    #[test]
    fn a_whole_plan_round_trips_through_its_form() {
        let content = plan();
        assert_eq!(
            PlanContent::parse(&PlanForm::from(&content)).unwrap(),
            content
        );
    }

    #[test]
    fn a_plan_form_reports_errors_of_every_section() {
        let mut form = PlanForm::from(&plan());
        form.pass_marks[1].threshold = "lots".into();
        form.scenarios[0].input_tokens_low = "".into();
        form.demand.pilot_users = "twenty".into();
        form.serving.prefix_caching = "maybe".into();
        let errors = PlanContent::parse(&form).unwrap_err();
        let found: Vec<String> = errors.errors.iter().map(ToString::to_string).collect();
        assert_eq!(
            found,
            vec![
                "pass mark 2, threshold: `lots` is not a number",
                "scenario 1, input_tokens_low: required",
                "demand, pilot_users: `twenty` is not a whole number",
                "pilot serving, prefix_caching: `maybe`: expected on or off",
            ]
        );
    }

    #[test]
    fn cross_checks_run_once_every_part_parsed() {
        let mut form = PlanForm::from(&plan());
        form.pass_marks[0].scope = "scenario:Batch".into();
        let errors = PlanContent::parse(&form).unwrap_err().errors;
        assert_eq!(errors.len(), 1);
        assert_eq!(
            (errors[0].index, errors[0].field.as_str()),
            (Some(0), "scope")
        );
    }
}
