//! A redb storage backend over a byte vector, so a file image can be searched where there
//! is no filesystem (WASM) and tests can work without temporary files.

use redb::StorageBackend;
use std::io::Error as BackendIoError;
use std::sync::RwLock;

/// The file image, growable so redb may write to it as it would to a file.
#[derive(Debug)]
pub struct MemoryBackend(RwLock<Vec<u8>>);

impl MemoryBackend {
    /// Wraps a file image.
    pub fn new(bytes: Vec<u8>) -> MemoryBackend {
        MemoryBackend(RwLock::new(bytes))
    }
}

fn out_of_range() -> BackendIoError {
    BackendIoError::new(std::io::ErrorKind::InvalidInput, "offset out of range")
}

impl StorageBackend for MemoryBackend {
    fn len(&self) -> Result<u64, BackendIoError> {
        Ok(self.0.read().map_err(|_| out_of_range())?.len() as u64)
    }

    fn read(&self, offset: u64, out: &mut [u8]) -> Result<(), BackendIoError> {
        let guard = self.0.read().map_err(|_| out_of_range())?;
        let start = usize::try_from(offset).map_err(|_| out_of_range())?;
        let src = guard.get(start..start + out.len()).ok_or_else(out_of_range)?;
        out.copy_from_slice(src);
        Ok(())
    }

    fn set_len(&self, len: u64) -> Result<(), BackendIoError> {
        let mut guard = self.0.write().map_err(|_| out_of_range())?;
        guard.resize(usize::try_from(len).map_err(|_| out_of_range())?, 0);
        Ok(())
    }

    fn sync_data(&self) -> Result<(), BackendIoError> {
        Ok(())
    }

    fn write(&self, offset: u64, data: &[u8]) -> Result<(), BackendIoError> {
        let mut guard = self.0.write().map_err(|_| out_of_range())?;
        let start = usize::try_from(offset).map_err(|_| out_of_range())?;
        let dst = guard.get_mut(start..start + data.len()).ok_or_else(out_of_range)?;
        dst.copy_from_slice(data);
        Ok(())
    }
}
