/**
 * A customer's picture (fetched with the bearer token, as the API protects it) or initials; in the
 * detail header also the upload and removal of the picture.
 */
import DeleteIcon from '@mui/icons-material/Delete';
import PhotoCameraIcon from '@mui/icons-material/PhotoCamera';
import BusinessIcon from '@mui/icons-material/Business';
import { Avatar, Box, IconButton, Tooltip } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { useNotify, useRefresh, useTranslate } from 'react-admin';
import { api, messageOf } from '../../dataProvider/apiClient.ts';
import { type CustomerValues, customerName } from './model.ts';

/** Object URLs of pictures already loaded, by storage key. */
const loaded = new Map<string, string>();

function useAvatarUrl(id: unknown, key: unknown): string | undefined {
  const [fetched, setFetched] = useState<{ key: string; url: string } | undefined>();
  const wanted = typeof key === 'string' && key ? key : undefined;
  useEffect(() => {
    if (!wanted || loaded.has(wanted)) return;
    let active = true;
    api
      .blob(`customers/${id}/avatar`)
      .then(({ blob }) => {
        const url = URL.createObjectURL(blob);
        loaded.set(wanted, url);
        if (active) setFetched({ key: wanted, url });
      })
      .catch(() => {});
    return () => {
      active = false;
    };
  }, [id, wanted]);
  if (!wanted) return undefined;
  return loaded.get(wanted) ?? (fetched?.key === wanted ? fetched.url : undefined);
}

export function CustomerAvatar({ record, size = 40 }: { record: CustomerValues; size?: number }) {
  const url = useAvatarUrl(record.id, record.avatar);
  const name = customerName(record);
  const initials = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part.charAt(0).toUpperCase())
    .join('');
  return (
    <Avatar src={url} alt={name} sx={{ width: size, height: size, fontSize: size * 0.4 }}>
      {record.isCompany ? <BusinessIcon fontSize="small" /> : initials}
    </Avatar>
  );
}

export function EditableAvatar({ record }: { record: CustomerValues }) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const input = useRef<HTMLInputElement>(null);
  const upload = async (file: File) => {
    const form = new FormData();
    form.append('file', file);
    try {
      await api.upload(`customers/${record.id}/avatar`, form);
      refresh();
    } catch (error) {
      notify(messageOf(error), { type: 'error' });
    }
  };
  const remove = async () => {
    try {
      await api.json('DELETE', `customers/${record.id}/avatar`);
      refresh();
    } catch (error) {
      notify(messageOf(error), { type: 'error' });
    }
  };
  return (
    <Box
      sx={{
        position: 'relative',
        display: 'inline-flex',
        flexDirection: 'column',
        alignItems: 'center',
      }}
    >
      <CustomerAvatar record={record} size={72} />
      <Box>
        <Tooltip title={translate('app.customers.avatar.upload')}>
          <IconButton size="small" onClick={() => input.current?.click()}>
            <PhotoCameraIcon fontSize="small" />
          </IconButton>
        </Tooltip>
        {record.avatar ? (
          <Tooltip title={translate('app.customers.avatar.remove')}>
            <IconButton size="small" onClick={remove}>
              <DeleteIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        ) : null}
      </Box>
      <input
        ref={input}
        type="file"
        accept="image/jpeg,image/png,image/webp,image/gif"
        hidden
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (file) void upload(file);
          event.target.value = '';
        }}
      />
    </Box>
  );
}
