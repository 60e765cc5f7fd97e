package internal

const PackageVersion = "3.96.0" // x-release-please-version
