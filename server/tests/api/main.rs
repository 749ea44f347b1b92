//! HTTP and store tests: each test starts the real application on a free port with a fresh
//! database — a SQLite file in a temporary folder, or, when `TEST_DATABASE_URL` is set, a
//! PostgreSQL schema of its own that is dropped afterwards.

mod accounts;
mod architecture;
mod authorisation;
mod calibration;
mod catalog;
mod cli;
mod evidence_history;
mod fidelity;
mod helpers;
mod hostile;
mod instances;
mod languages;
mod languages_admin;
mod languages_calibration;
mod languages_every_page;
mod languages_evidence;
mod languages_load_tests;
mod languages_plan_edit;
mod languages_quality;
mod languages_sizing;
mod languages_traffic;
mod live;
mod load_tests;
mod load_tests_pages;
mod metrics_pull;
mod migrations;
mod openapi;
mod pages;
mod pilots;
mod plans;
mod predict;
mod quality;
mod recommendation;
mod render_fuzz;
mod report_german;
mod reports;
mod rest;
mod security;
mod sizing;
mod staged_upload;
mod trace;
mod traffic;
mod upload_check;
mod upload_races;
