/**
 * The feedback's image (SPEC §3 Feedback `image`, issue 15): a phone's photo of a signed form or a
 * whiteboard. In the feedback dialog a picker with a preview (`FeedbackImagePicker`; the dialog
 * sends the photo right after the feedback call); on the appointment's page the image in the
 * feedback card (`FeedbackImage`: a thumbnail, a click opens it full size), replaced or removed by
 * whoever may change the feedback. The API protects the image, so it is fetched with the bearer
 * token and shown from an object URL; a photo the browser cannot draw (HEIC outside Apple's
 * browsers) shows its name and a download instead.
 */
import AddAPhotoIcon from '@mui/icons-material/AddAPhoto';
import CloseIcon from '@mui/icons-material/Close';
import DeleteIcon from '@mui/icons-material/Delete';
import DownloadIcon from '@mui/icons-material/Download';
import ImageIcon from '@mui/icons-material/Image';
import {
  Box,
  ButtonBase,
  Dialog,
  DialogContent,
  DialogTitle,
  IconButton,
  LinearProgress,
  Button as MuiButton,
  Skeleton,
  Stack,
  Tooltip,
  Typography,
} from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { Confirm, useNotify, useRefresh, useTranslate } from 'react-admin';
import { api, messageOf } from '../../dataProvider/apiClient.ts';
import { fieldLabelKey } from '../../schema/labels.ts';
import { FEEDBACK_IMAGE_ACCEPT, type Feedback, isFeedbackImageFile } from './model.ts';

const text = (name: string) => `app.appointments.feedback.image.${name}`;

/** Sends the photo as the feedback's image (replacing any); answers the feedback. */
export function uploadFeedbackImage(
  id: number,
  file: File,
  onUpload?: (fraction: number) => void,
): Promise<{ data: Feedback }> {
  const form = new FormData();
  form.append('file', file);
  return api.upload(`feedbacks/${id}/image`, form, { onUpload });
}

/** Object URLs of stored images already fetched, by storage key (a new photo: a new key). */
const fetched = new Map<string, string>();

/** The stored image of a feedback, fetched with the token; undefined while loading or failed. */
function useStoredImageUrl(
  id: number,
  key: string | null | undefined,
): { url?: string; failed: boolean } {
  const [state, setState] = useState<{ key: string; url?: string; failed: boolean }>();
  useEffect(() => {
    if (!key || fetched.has(key)) return undefined;
    let active = true;
    api
      .blob(`feedbacks/${id}/image`)
      .then(({ blob }) => {
        const url = URL.createObjectURL(blob);
        fetched.set(key, url);
        if (active) setState({ key, url, failed: false });
      })
      .catch(() => {
        if (active) setState({ key, failed: true });
      });
    return () => {
      active = false;
    };
  }, [id, key]);
  if (!key) return { failed: false };
  const known = fetched.get(key);
  if (known) return { url: known, failed: false };
  return state?.key === key ? { url: state.url, failed: state.failed } : { failed: false };
}

/** A picture, or — when the browser cannot draw it — its name with a note. */
function Picture({
  url,
  name,
  size,
  full,
  testId,
}: {
  url: string;
  name: string;
  size?: number;
  full?: boolean;
  testId?: string;
}) {
  const translate = useTranslate();
  const [broken, setBroken] = useState(false);
  if (broken) {
    return (
      <Stack
        spacing={0.5}
        sx={{
          alignItems: 'center',
          justifyContent: 'center',
          width: full ? 320 : size,
          minHeight: full ? 200 : size,
          p: 1,
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
          color: 'text.secondary',
        }}
        data-testid={testId ? `${testId}-no-preview` : undefined}
      >
        <ImageIcon />
        <Typography variant="caption" sx={{ wordBreak: 'break-all', textAlign: 'center' }}>
          {name}
        </Typography>
        <Typography variant="caption" sx={{ textAlign: 'center' }}>
          {translate(text('noPreview'))}
        </Typography>
      </Stack>
    );
  }
  return (
    <Box
      component="img"
      src={url}
      alt={translate(text('alt'))}
      onError={() => setBroken(true)}
      data-testid={testId}
      sx={
        full
          ? { display: 'block', maxWidth: '100%', maxHeight: 'calc(100vh - 160px)', mx: 'auto' }
          : {
              // As tall as `size`, as wide as the photo's proportions give (a panorama cut).
              display: 'block',
              height: size,
              width: 'auto',
              maxWidth: size === undefined ? undefined : size * 1.75,
              objectFit: 'cover',
              borderRadius: 1,
              border: 1,
              borderColor: 'divider',
            }
      }
    />
  );
}

/**
 * The dialog's photo: choose one (a phone offers its camera or gallery), see it, choose another or
 * drop it. Only a photo of the accepted kinds is kept; the server checks the content again.
 */
/** "Add photo" / "Replace photo" and, when there is one, "Remove" (the dialog's and the page's). */
function ImageButtons({
  has,
  disabled,
  onChoose,
  onRemove,
  testIds,
}: {
  has: boolean;
  disabled: boolean;
  onChoose: () => void;
  onRemove: () => void;
  /** data-testid of the choose and the remove button. */
  testIds: [string, string];
}) {
  const translate = useTranslate();
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
      <MuiButton
        size="small"
        variant="outlined"
        startIcon={<AddAPhotoIcon />}
        onClick={onChoose}
        disabled={disabled}
        data-testid={testIds[0]}
      >
        {translate(text(has ? 'replace' : 'add'))}
      </MuiButton>
      {has ? (
        <MuiButton
          size="small"
          color="inherit"
          startIcon={<DeleteIcon />}
          onClick={onRemove}
          disabled={disabled}
          data-testid={testIds[1]}
        >
          {translate(text('remove'))}
        </MuiButton>
      ) : null}
    </Stack>
  );
}

export function FeedbackImagePicker({
  file,
  onChange,
  progress,
}: {
  file: File | null;
  onChange: (file: File | null) => void;
  /** Upload progress (0..1) while the photo is being sent. */
  progress?: number | null;
}) {
  const translate = useTranslate();
  const input = useRef<HTMLInputElement>(null);
  const [wrong, setWrong] = useState(false);
  // The picked photo's object URL, made when it is picked and revoked when another replaces it.
  const [preview, setPreview] = useState<{ file: File; url: string } | null>(null);
  useEffect(() => {
    if (!preview) return undefined;
    return () => URL.revokeObjectURL(preview.url);
  }, [preview]);
  const url = file && preview?.file === file ? preview.url : undefined;
  const pick = (picked: File | null) => {
    setPreview(picked ? { file: picked, url: URL.createObjectURL(picked) } : null);
    onChange(picked);
  };
  return (
    <Box sx={{ width: '100%', mt: 1 }} data-testid="feedback-image-picker">
      <Typography variant="caption" color="text.secondary" component="div" sx={{ mb: 0.5 }}>
        {translate(fieldLabelKey('feedbacks', 'image'))}
      </Typography>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        {file && url ? (
          <Picture key={url} url={url} name={file.name} size={96} testId="feedback-image-preview" />
        ) : null}
        <Stack spacing={0.5} sx={{ minWidth: 0 }}>
          <ImageButtons
            has={Boolean(file)}
            disabled={progress !== null && progress !== undefined}
            onChoose={() => input.current?.click()}
            onRemove={() => pick(null)}
            testIds={['feedback-image-choose', 'feedback-image-clear']}
          />
          <Typography
            variant="caption"
            color={wrong ? 'error' : 'text.secondary'}
            role={wrong ? 'alert' : undefined}
            data-testid="feedback-image-hint"
          >
            {file && !wrong ? `${file.name} · ` : ''}
            {translate(text(wrong ? 'wrongType' : 'hint'))}
          </Typography>
        </Stack>
      </Stack>
      {progress !== null && progress !== undefined ? (
        <LinearProgress
          variant="determinate"
          value={Math.round(progress * 100)}
          sx={{ mt: 1 }}
          aria-label={translate(text('uploading'))}
        />
      ) : null}
      <input
        ref={input}
        type="file"
        accept={FEEDBACK_IMAGE_ACCEPT}
        hidden
        data-testid="feedback-image-input"
        onChange={(event) => {
          const picked = event.target.files?.[0];
          event.target.value = '';
          if (!picked) return;
          const fits = isFeedbackImageFile(picked);
          setWrong(!fits);
          if (fits) pick(picked);
        }}
      />
    </Box>
  );
}

/** The image full size, over the page. */
function FullSize({
  url,
  name,
  onClose,
  onDownload,
}: {
  url: string;
  name: string;
  onClose: () => void;
  onDownload: () => void;
}) {
  const translate = useTranslate();
  return (
    <Dialog
      open
      onClose={onClose}
      maxWidth={false}
      aria-labelledby="feedback-image-title"
      data-testid="feedback-image-full"
    >
      <DialogTitle
        id="feedback-image-title"
        sx={{ display: 'flex', alignItems: 'center', gap: 1, pr: 1 }}
      >
        <Box component="span" sx={{ flex: 1 }}>
          {translate(fieldLabelKey('feedbacks', 'image'))}
        </Box>
        <Tooltip title={translate(text('download'))}>
          <IconButton onClick={onDownload} aria-label={translate(text('download'))}>
            <DownloadIcon />
          </IconButton>
        </Tooltip>
        <IconButton
          onClick={onClose}
          aria-label={translate('ra.action.close')}
          data-testid="feedback-image-close"
        >
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent dividers sx={{ p: 1 }}>
        <Picture url={url} name={name} full testId="feedback-image-full-picture" />
      </DialogContent>
    </Dialog>
  );
}

/**
 * The feedback card's image: a thumbnail that opens full size; with `editable`, choose another
 * photo or remove it (after a confirmation).
 */
export function FeedbackImage({ feedback, editable }: { feedback: Feedback; editable: boolean }) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const input = useRef<HTMLInputElement>(null);
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const key = typeof feedback.image === 'string' && feedback.image ? feedback.image : null;
  const { url, failed } = useStoredImageUrl(feedback.id, key);
  const extension = key?.split('.').pop() ?? 'jpg';
  const name = `feedback-${feedback.id}.${extension}`;
  const busy = progress !== null;

  const replace = async (file: File) => {
    if (!isFeedbackImageFile(file)) {
      notify(text('wrongType'), { type: 'error' });
      return;
    }
    setProgress(0);
    try {
      await uploadFeedbackImage(feedback.id, file, setProgress);
      notify(text('saved'), { type: 'success' });
      refresh();
    } catch (error) {
      notify(messageOf(error), { type: 'error' });
    } finally {
      setProgress(null);
    }
  };
  const remove = async () => {
    setConfirming(false);
    try {
      await api.json('DELETE', `feedbacks/${feedback.id}/image`);
      notify(text('removed'), { type: 'success' });
      refresh();
    } catch (error) {
      notify(messageOf(error), { type: 'error' });
    }
  };
  const download = () => {
    api.download(`feedbacks/${feedback.id}/image`, name).catch((error: unknown) => {
      notify(messageOf(error), { type: 'error' });
    });
  };

  let shown = null;
  if (key && url) {
    shown = (
      <Tooltip title={translate(text('open'))}>
        <ButtonBase
          onClick={() => setOpen(true)}
          aria-label={translate(text('open'))}
          sx={{ borderRadius: 1 }}
          data-testid="feedback-image-open"
        >
          <Picture key={url} url={url} name={name} size={160} testId="feedback-image" />
        </ButtonBase>
      </Tooltip>
    );
  } else if (key && failed) {
    shown = (
      <Typography variant="body2" color="error">
        {translate('app.errors.storedFileMissing')}
      </Typography>
    );
  } else if (key) {
    shown = <Skeleton variant="rounded" width={160} height={160} />;
  }

  return (
    <Box data-testid="feedback-image-section">
      <Stack
        direction="row"
        spacing={2}
        useFlexGap
        sx={{ alignItems: 'flex-end', flexWrap: 'wrap' }}
      >
        {shown}
        {editable ? (
          <ImageButtons
            has={Boolean(key)}
            disabled={busy}
            onChoose={() => input.current?.click()}
            onRemove={() => setConfirming(true)}
            testIds={['feedback-image-replace', 'feedback-image-remove']}
          />
        ) : null}
      </Stack>
      {busy ? (
        <LinearProgress
          variant="determinate"
          value={Math.round((progress ?? 0) * 100)}
          sx={{ mt: 1, maxWidth: 320 }}
          aria-label={translate(text('uploading'))}
        />
      ) : null}
      {!key && !editable ? (
        <Typography variant="body2" color="text.disabled">
          –
        </Typography>
      ) : null}
      {editable ? (
        <input
          ref={input}
          type="file"
          accept={FEEDBACK_IMAGE_ACCEPT}
          hidden
          data-testid="feedback-image-replace-input"
          onChange={(event) => {
            const picked = event.target.files?.[0];
            event.target.value = '';
            if (picked) void replace(picked);
          }}
        />
      ) : null}
      {open && url ? (
        <FullSize url={url} name={name} onClose={() => setOpen(false)} onDownload={download} />
      ) : null}
      <Confirm
        isOpen={confirming}
        title={text('remove')}
        content={text('confirmRemove')}
        onConfirm={remove}
        onClose={() => setConfirming(false)}
      />
    </Box>
  );
}
