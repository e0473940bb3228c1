package io.tbactors.sample.iot.device;

import java.util.Objects;

import io.tbactors.api.TbActorMsg;
import io.tbactors.sample.iot.cluster.AdminChangeListener;
import org.springframework.cache.Cache;
import org.springframework.cache.CacheManager;
import org.springframework.stereotype.Component;

/** Drops a token from this node's {@value DeviceService#DEVICES_BY_TOKEN} cache when any node changes what it means. */
@Component
class DeviceTokenCacheEviction implements AdminChangeListener {

    private final Cache devicesByToken;

    DeviceTokenCacheEviction(CacheManager cacheManager) {
        this.devicesByToken = Objects.requireNonNull(cacheManager.getCache(DeviceService.DEVICES_BY_TOKEN),
                "cache " + DeviceService.DEVICES_BY_TOKEN);
    }

    @Override
    public void onAdminChange(TbActorMsg change) {
        if (change instanceof DeviceTokenChangedMsg token) {
            devicesByToken.evict(token.accessToken());
        }
    }
}
