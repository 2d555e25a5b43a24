"""Rule files: strict loading, composition (extends, options, presets), validation, the frozen model."""
