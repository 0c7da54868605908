{
  "targets": [
    {
      "target_name": "toolsearch_tokens",
      "sources": ["native/counter.cc"],
      "cflags_cc": ["-std=c++17", "-O3"],
      "xcode_settings": { "OTHER_CPLUSPLUSFLAGS": ["-std=c++17", "-O3"] },
      "msvs_settings": { "VCCLCompilerTool": { "AdditionalOptions": ["/std:c++17"] } }
    }
  ]
}
