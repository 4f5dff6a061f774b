#include "core/analysis/data_pipeline.h"

#include <algorithm>

#include "core/analysis/fleet_formulas.h"
#include "core/analysis/sourced.h"
#include "core/text.h"

namespace studio {

DataPipeline modelDataPipeline(const HardwareProfile& hw, const WorkloadShape& w, const Workload& workload,
                               double tokensPerS, std::vector<Problem>& warnings)
{
    DataPipeline d;
    const auto& st = hw.storage;
    const Sourced bytesPerToken = inputOr(workload.data.bytes_per_token, defaults::kBytesPerToken);
    const Sourced fileMb = inputOr(workload.data.file_mb, defaults::kFileMb);
    d.demandGbPerS = tokensPerS * bytesPerToken.value / 1e9;
    d.filesPerS = d.demandGbPerS * 1000 / fileMb.value;
    d.readSupplyGbPerS = st.connected ? std::min(st.readGbPerS.value, st.nodePathGbPerS) : st.readGbPerS.value;
    d.metadataOpsPerS = st.metadataKiops.value * 1000;
    d.localReadGbPerSPerNode = st.localReadGbPerSPerNode;
    d.readHeadroom = d.demandGbPerS > 0 ? d.readSupplyGbPerS / d.demandGbPerS : 0;
    d.explainDemand = {"tokens/s x bytes per token; files/s = that / file size",
                       {{"tokens/s", tokensPerS, "tokens/s", "the step-time model"},
                        bytesPerToken.as("bytes per token", "B"),
                        fileMb.as("file size", "MB"),
                        st.readGbPerS.as("storage read bandwidth", "GB/s")}};

    d.checkpointGb = fleet::checkpointBytes(w.params) / 1e9;
    d.writePathGbPerS = st.connected ? std::min(st.writeGbPerS.value, st.nodePathGbPerS) : st.writeGbPerS.value;
    d.writeAtStorageS = fleet::writeSeconds(d.checkpointGb, st.writeGbPerS.value);
    d.writeAtNicsS = fleet::writeSeconds(d.checkpointGb, d.writePathGbPerS);
    d.explainCheckpoint = {"checkpoint = 14 bytes/param (bf16 weights + fp32 master + Adam moments); write time = "
                           "size / min(storage write, nodes' storage-path NICs)",
                           {{"parameters", w.params, "", "the workload's model"},
                            st.writeGbPerS.as("storage write bandwidth", "GB/s"),
                            {"nodes' storage-path bandwidth", st.nodePathGbPerS, "GB/s", "the design's links"}}};

    if (st.systems == 0) {
        warnings.push_back({Severity::Warning, "/components",
                            "the design has no shared storage: data loading and "
                            "checkpoints have nowhere to go",
                            "no_storage"});
        return d;
    }
    if (d.demandGbPerS > d.readSupplyGbPerS)
        warnings.push_back({Severity::Warning, "/components",
                            "data loading needs " + formatValue(d.demandGbPerS, 3) + " GB/s but storage delivers " +
                                formatValue(d.readSupplyGbPerS, 3) + " GB/s",
                            "storage_read_bottleneck"});
    if (d.filesPerS > d.metadataOpsPerS)
        warnings.push_back({Severity::Warning, "/workload/data/file_mb",
                            "data loading opens " + formatValue(d.filesPerS, 3) + " files/s but storage handles " +
                                formatValue(d.metadataOpsPerS, 3) +
                                " metadata operations/s: pack the data in larger files",
                            "storage_metadata_bottleneck"});
    return d;
}

}  // namespace studio
