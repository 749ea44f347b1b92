//! Receiving an uploaded file: streamed to disk, size-limited, hashed.
//!
//! Evidence files can be gigabytes (gateway logs), so a multipart field is never held in memory:
//! each chunk goes to a temporary file under `DATA_DIR/uploads/` while its SHA-256 is computed,
//! and the upload stops with 413 as soon as it passes `MAX_UPLOAD_MB`. The caller parses the
//! temporary file and then either hands it over to [`desk::intake::store`], which keeps it under
//! `DATA_DIR/evidence/<sha256>` (the raw file stays available for re-analysis and audit), or
//! drops it, which deletes it. A
//! staged upload (checked without JavaScript, see [`desk::evidence::staged`]) comes back as a
//! [`ReceivedFile::copy_of`] its kept file, so storing it takes the very same path.

use axum::extract::Multipart;
use desk::ServiceError;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use tokio::io::AsyncWriteExt;

/// A file received from a multipart upload, on disk in a temporary place.
#[derive(Debug)]
pub struct ReceivedFile {
    /// The name the client gave, without any folder part.
    pub file_name: String,
    pub sha256: String,
    pub size_bytes: u64,
    pub temp_path: PathBuf,
    kept: bool,
}

/// The multipart form of an evidence upload: the `file` field and the other text fields.
#[derive(Debug)]
pub struct EvidenceUpload {
    pub file: ReceivedFile,
    /// Every other field (e.g. `kind` and run settings), trimmed.
    pub fields: BTreeMap<String, String>,
}

impl ReceivedFile {
    /// The file as [`desk::intake::store`] takes it, which moves it into the evidence store or
    /// removes it whatever happens: from here on, dropping this no longer deletes it.
    pub fn hand_over(&mut self) -> desk::intake::Received<'_> {
        self.kept = true;
        desk::intake::Received {
            file_name: &self.file_name,
            sha256: &self.sha256,
            temp_path: &self.temp_path,
        }
    }

    /// A copy of the kept file at `source` (a staged upload's blob) under `uploads_dir`, as if
    /// it had been received again: storing it goes through [`ReceivedFile::hand_over`] like any
    /// upload, and dropping it deletes only the copy.
    pub async fn copy_of(
        source: &Path,
        file_name: &str,
        sha256: &str,
        size_bytes: u64,
        uploads_dir: &Path,
    ) -> Result<ReceivedFile, ServiceError> {
        tokio::fs::create_dir_all(uploads_dir)
            .await
            .map_err(internal)?;
        let received = ReceivedFile {
            file_name: file_name.to_string(),
            sha256: sha256.to_string(),
            size_bytes,
            temp_path: temp_path(uploads_dir),
            kept: false,
        };
        tokio::fs::copy(source, &received.temp_path)
            .await
            .map_err(internal)?;
        Ok(received)
    }
}

/// A fresh temporary name under `uploads_dir`.
fn temp_path(uploads_dir: &Path) -> PathBuf {
    uploads_dir.join(format!("upload-{:016x}.part", rand::random::<u64>()))
}

impl Drop for ReceivedFile {
    fn drop(&mut self) {
        if !self.kept {
            let _ = std::fs::remove_file(&self.temp_path);
        }
    }
}

fn internal(error: std::io::Error) -> ServiceError {
    tracing::error!(%error, "upload storage failed");
    ServiceError::Internal
}

/// Keeps only the last path component of a client-supplied file name.
pub fn clean_file_name(name: &str) -> String {
    let base = name.rsplit(['/', '\\']).next().unwrap_or_default().trim();
    let cleaned: String = base.chars().filter(|c| !c.is_control()).take(200).collect();
    if cleaned.is_empty() {
        "upload".to_string()
    } else {
        cleaned
    }
}

/// Reads a multipart evidence form: the field `file` is streamed to `uploads_dir`, at most
/// `max_bytes`; other fields (at most 64 KiB each) are collected as text.
pub async fn receive_evidence(
    mut multipart: Multipart,
    uploads_dir: &Path,
    max_bytes: u64,
) -> Result<EvidenceUpload, ServiceError> {
    tokio::fs::create_dir_all(uploads_dir)
        .await
        .map_err(internal)?;
    let mut file = None;
    let mut fields = BTreeMap::new();
    while let Some(mut field) = multipart
        .next_field()
        .await
        .map_err(|e| ServiceError::invalid(format!("upload: {}", e.body_text())))?
    {
        let name = field.name().unwrap_or_default().to_string();
        if name == "file" {
            if file.is_some() {
                return Err(ServiceError::invalid("file: send one file per upload"));
            }
            let file_name = clean_file_name(field.file_name().unwrap_or("upload"));
            let temp_path = temp_path(uploads_dir);
            let mut received = ReceivedFile {
                file_name,
                sha256: String::new(),
                size_bytes: 0,
                temp_path,
                kept: false,
            };
            let mut out = tokio::fs::File::create(&received.temp_path)
                .await
                .map_err(internal)?;
            let mut hasher = Sha256::new();
            while let Some(chunk) = field.chunk().await.map_err(|e| {
                ServiceError::invalid(format!(
                    "{}: upload interrupted: {}",
                    received.file_name,
                    e.body_text()
                ))
            })? {
                received.size_bytes += chunk.len() as u64;
                if received.size_bytes > max_bytes {
                    return Err(ServiceError::TooLarge(max_bytes / (1024 * 1024)));
                }
                hasher.update(&chunk);
                out.write_all(&chunk).await.map_err(internal)?;
            }
            out.flush().await.map_err(internal)?;
            if received.size_bytes == 0 {
                return Err(ServiceError::invalid(format!(
                    "{}: the file is empty",
                    received.file_name
                )));
            }
            received.sha256 = hex::encode(hasher.finalize());
            file = Some(received);
        } else {
            let text = field
                .text()
                .await
                .map_err(|e| ServiceError::invalid(format!("{name}: {}", e.body_text())))?;
            if text.len() > 64 * 1024 {
                return Err(ServiceError::invalid(format!("{name}: at most 64 KiB")));
            }
            fields.insert(name, text.trim().to_string());
        }
    }
    let file = file.ok_or_else(|| {
        ServiceError::invalid("file: no file in the upload (multipart field `file`)")
    })?;
    Ok(EvidenceUpload { file, fields })
}

#[cfg(test)]
mod tests {
    use super::clean_file_name;

    #[test]
    fn client_file_names_lose_their_folders() {
        assert_eq!(clean_file_name("../../etc/passwd"), "passwd");
        assert_eq!(clean_file_name("C:\\runs\\bench.json"), "bench.json");
        assert_eq!(clean_file_name("  "), "upload");
    }
}
