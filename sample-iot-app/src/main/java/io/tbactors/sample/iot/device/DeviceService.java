package io.tbactors.sample.iot.device;

import java.security.SecureRandom;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import io.tbactors.sample.iot.actors.msg.DeviceDeletedMsg;
import io.tbactors.sample.iot.cluster.AdminChanges;
import io.tbactors.sample.iot.tenant.DefaultTenant;
import io.tbactors.sample.iot.web.NotFoundException;
import lombok.RequiredArgsConstructor;
import org.springframework.cache.annotation.CacheEvict;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;

/**
 * Creates, finds and deletes devices. Look-ups by access token, the device API's hot path, go through the
 * {@value #DEVICES_BY_TOKEN} cache; unknown tokens are cached too (as empty), so every change evicts.
 */
@Service
@RequiredArgsConstructor
public class DeviceService {

    /** Cache of devices by access token. */
    public static final String DEVICES_BY_TOKEN = "devicesByToken";

    private static final char[] TOKEN_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789".toCharArray();
    private static final int TOKEN_LENGTH = 20;

    private final SecureRandom random = new SecureRandom();
    private final DeviceRepository repository;
    private final AdminChanges adminChanges;

    /**
     * Creates a device in the default tenant with a new random access token.
     *
     * @param name the name, unique in the tenant
     * @return the created device
     * @throws DuplicateKeyException when the tenant has a device with that name
     */
    @CacheEvict(cacheNames = DEVICES_BY_TOKEN, key = "#result.accessToken()")
    public Device create(String name, String type) {
        if (repository.findByTenantIdAndName(DefaultTenant.ID, name).isPresent()) {
            throw new DuplicateKeyException("A device named '" + name + "' already exists");
        }
        Device device = new Device(UUID.randomUUID(), DefaultTenant.ID, name, type, newAccessToken(),
                System.currentTimeMillis(), null);
        Device saved = repository.save(device);
        // another node may have cached the token as unknown
        adminChanges.publish(new DeviceTokenChangedMsg(saved.accessToken()), "Device " + saved.id());
        return saved;
    }

    /**
     * @param accessToken a device's access token
     * @return the device, or empty for an unknown token
     */
    @Cacheable(cacheNames = DEVICES_BY_TOKEN)
    public Optional<Device> findByAccessToken(String accessToken) {
        return repository.findByAccessToken(accessToken);
    }

    /**
     * @return the device, or empty
     */
    public Optional<Device> findById(UUID id) {
        return repository.findById(id);
    }

    /**
     * @return the device
     * @throws NotFoundException when there is none
     */
    public Device getById(UUID id) {
        return findById(id).orElseThrow(() -> new NotFoundException("Device " + id + " not found"));
    }

    /**
     * @return the default tenant's device with that name
     */
    public Optional<Device> findByName(String name) {
        return repository.findByTenantIdAndName(DefaultTenant.ID, name);
    }

    /** @return the default tenant's devices, oldest first */
    public List<Device> findAll() {
        return repository.findAllByTenantIdOrderByCreatedTimeAsc(DefaultTenant.ID);
    }

    /**
     * Deletes a device with its telemetry, attributes and alarms, and, on every node, forgets its token and stops its
     * actor.
     *
     * @return the deleted device, whose token is evicted from the cache
     * @throws NotFoundException when there is none
     */
    @CacheEvict(cacheNames = DEVICES_BY_TOKEN, key = "#result.accessToken()")
    public Device delete(UUID id) {
        Device device = getById(id);
        repository.delete(device);
        String what = "The deletion of device " + device.id();
        adminChanges.publish(new DeviceTokenChangedMsg(device.accessToken()), what);
        adminChanges.publish(new DeviceDeletedMsg(device.tenantId(), device.id()), what);
        return device;
    }

    private String newAccessToken() {
        char[] token = new char[TOKEN_LENGTH];
        for (int i = 0; i < token.length; i++) {
            token[i] = TOKEN_ALPHABET[random.nextInt(TOKEN_ALPHABET.length)];
        }
        return new String(token);
    }
}
