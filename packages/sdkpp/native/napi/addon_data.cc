#include "napi/addon_data.h"

namespace sdkpp::addon {

AddonData& DataOf(Napi::Env env)
{
    AddonData* data = env.GetInstanceData<AddonData>();
    if (data == nullptr) {
        data = new AddonData();
        env.SetInstanceData<AddonData>(data);
    }
    return *data;
}

} // namespace sdkpp::addon
